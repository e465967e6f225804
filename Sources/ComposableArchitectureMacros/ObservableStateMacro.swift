import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState`: a feature's state, struct or enum, that a store lets observers track
/// (`withObservationTracking` over the standard Observation module).
///
/// The state keeps its stored properties as written, so that its synthesized `Codable`,
/// `Equatable` and memberwise initializer are the ones a user reads in the declaration: a store
/// is what observers track, as a whole (see `Store`'s conformance to `Observable`).
public enum ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) || declaration.is(EnumDeclSyntax.self) else {
      context.diagnose(Self.notAValueType(declaration, attribute: node))
      return []
    }
    guard !declaration.inherits("ObservableState") else { return [] }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \
      ComposableArchitecture.ObservableState {
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }

  static func notAValueType(
    _ declaration: some DeclGroupSyntax, attribute: AttributeSyntax
  ) -> Diagnostic {
    guard declaration.is(ClassDeclSyntax.self) else {
      return Diagnostic(node: attribute, message: ObservableStateDiagnostic.notAValueType)
    }
    return Diagnostic(
      node: attribute,
      message: ObservableStateDiagnostic.notAValueType,
      fixIt: FixIt(
        message: ObservableStateFixIt.useObservable,
        changes: [
          .replace(
            oldNode: Syntax(attribute),
            newNode: Syntax(
              AttributeSyntax(
                attributeName: IdentifierTypeSyntax(name: .identifier("Observable"))
              ).with(\.leadingTrivia, attribute.leadingTrivia)
                .with(\.trailingTrivia, attribute.trailingTrivia)))
        ]
      )
    )
  }
}

enum ObservableStateDiagnostic: String, DiagnosticMessage {
  case notAValueType

  var message: String {
    """
    '@ObservableState' can only be applied to a struct or an enum: a feature's state is a value
    """
  }

  var diagnosticID: MessageID {
    MessageID(domain: "ComposableArchitectureMacros", id: self.rawValue)
  }

  var severity: DiagnosticSeverity { .error }
}

enum ObservableStateFixIt: String, FixItMessage {
  case useObservable

  var message: String { "Use '@Observable' from Observation for a class" }

  var fixItID: MessageID {
    MessageID(domain: "ComposableArchitectureMacros", id: self.rawValue)
  }
}
