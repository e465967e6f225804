import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ReducerCaseEphemeral`: marks a case of a `@Reducer` enum whose state is data with no
/// reducer of its own (an alert, a dialog). `@Reducer` reads the mark; the macro writes nothing.
public enum ReducerCaseEphemeralMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    diagnoseUnlessEnumCase(node, declaration, in: context)
    return []
  }
}

/// `@ReducerCaseIgnored`: marks a case of a `@Reducer` enum that holds a value, not a feature:
/// no child reducer runs for it and it has no actions. `@Reducer` reads the mark.
public enum ReducerCaseIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    diagnoseUnlessEnumCase(node, declaration, in: context)
    return []
  }
}

/// `@ObservationStateIgnored`: a property of `@ObservableState` state that observers need not
/// see. `@ObservableState` leaves it a stored property; the mark itself writes nothing.
public enum ObservationStateIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if !declaration.is(VariableDeclSyntax.self) {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MarkerDiagnostic.notAProperty(node.attributeName.trimmedDescription)
        )
      )
    }
    return []
  }
}

/// A case mark is read by `@Reducer` on the enum around it: anywhere else it means nothing.
private func diagnoseUnlessEnumCase(
  _ node: AttributeSyntax,
  _ declaration: some DeclSyntaxProtocol,
  in context: some MacroExpansionContext
) {
  guard !declaration.is(EnumCaseDeclSyntax.self) else { return }
  context.diagnose(
    Diagnostic(
      node: node,
      message: MarkerDiagnostic.notAnEnumCase(node.attributeName.trimmedDescription)
    )
  )
}

enum MarkerDiagnostic: DiagnosticMessage {
  case notAnEnumCase(String)
  case notAProperty(String)

  var message: String {
    switch self {
    case .notAnEnumCase(let name):
      "'@\(name)' can only be applied to a case of a '@Reducer' enum"
    case .notAProperty(let name):
      "'@\(name)' can only be applied to a stored property of '@ObservableState' state"
    }
  }

  var diagnosticID: MessageID {
    switch self {
    case .notAnEnumCase: MessageID(domain: "ComposableArchitectureMacros", id: "notAnEnumCase")
    case .notAProperty: MessageID(domain: "ComposableArchitectureMacros", id: "notAProperty")
    }
  }

  var severity: DiagnosticSeverity { .error }
}
