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
public enum ObservableStateMacro: ScopedExtensionMacro, MemberMacro {
  /// An enum state's generated decoding, which reads its values as the enum names their types.
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard !declaration.inherits("ObservableState") else { return [] }
    return GeneratedCodecMacro.decoderMembers(of: declaration)
  }

  public static func extensions(
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
    // The JSON a recording writes of it, as its synthesized `Codable` writes it; for a state
    // that says nothing of `Codable` and that `@Reducer` did not reach (a model declared on its
    // own), the conformance in that shape and the same code beside it.
    var codec = GeneratedCodecMacro.extensions(of: declaration, type: type)
    // NB: Inside a `@Reducer`, its `@_RecordCodec` sees to it (an attribute a macro cannot see
    // on the declaration it is given).
    let isInReducer = context.lexicalContext.contains { ancestor in
      let attributes =
        ancestor.as(StructDeclSyntax.self)?.attributes
        ?? ancestor.as(EnumDeclSyntax.self)?.attributes
      return attributes?.contains("Reducer") ?? false
    }
    if !isInReducer, !RecordCodecMacro.levels.contains(where: declaration.attributes.contains) {
      codec += try RecordCodecMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
        in: context)
    }
    guard let structDecl = declaration.as(StructDeclSyntax.self) else {
      let decl: DeclSyntax = """
        \(raw: declaration.availability)extension \(type.trimmed): \
        ComposableArchitecture.ObservableState {
        }
        """
      return [decl.cast(ExtensionDeclSyntax.self)] + codec
    }
    // The fields bindings write, named as a recording names them.
    let fields = Self.storedProperties(of: structDecl).map {
      "ComposableArchitecture._BindableField(\"\($0)\", \\.\($0)),"
    }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \
      ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields {
        \(raw: declaration.accessPrefix)static var _$bindableFields: \
      [ComposableArchitecture._BindableField<Self>] {
          [
            \(raw: fields.joined(separator: "\n      "))
          ]
        }
      }
      """
    guard let members = Self.encodedMembers(of: structDecl),
      !declaration.inherits("_StepChanging")
    else { return [decl.cast(ExtensionDeclSyntax.self)] + codec }
    // What changed, member by member in the order of their names, as the synthesized `Codable`
    // writes them: a property wrapper's value through its storage.
    let comparisons = members.sorted { $0.key < $1.key }.map {
      "ComposableArchitecture._StepChanges.member(\"\($0.key)\", old.\($0.access), self.\($0.access), in: &object)"
    }
    let identities =
      members.isEmpty
      ? ["true"]
      : members.map {
        "ComposableArchitecture._StepChanges.isIdentical(self.\($0.access), other.\($0.access))"
      }
    let changes: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \
      ComposableArchitecture._StepChanging {
        \(raw: declaration.accessPrefix)func _appendStepChanges<Sink: ComposableArchitecture.StepChangeSink>(
          from old: Self, at path: [String], into sink: inout Sink
        ) {
          var object = ComposableArchitecture._StepChanges.Object(path: path, sink: sink)
          for _ in 0..<2 {
            \(raw: comparisons.joined(separator: "\n      "))
            object.nextPass()
          }
          object.finish(into: &sink)
        }
        \(raw: declaration.accessPrefix)func _isIdentical(to other: Self) -> Bool {
          \(raw: identities.joined(separator: "\n      && "))
        }
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self), changes.cast(ExtensionDeclSyntax.self)] + codec
  }

  /// The stored properties the synthesized `Codable` writes, by key, with the expression that
  /// reads each (a property wrapper's storage, `_name`); `nil` when the struct writes itself
  /// otherwise (its own `CodingKeys` or `encode(to:)`, a lazy property), and no code is made.
  static func encodedMembers(of declaration: StructDeclSyntax) -> [(key: String, access: String)]? {
    var members: [(key: String, access: String)] = []
    for decl in declaration.memberDecls {
      if let nested = decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" { return nil }
      if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode" {
        return nil
      }
      guard let variable = decl.as(VariableDeclSyntax.self), !variable.isStatic else { continue }
      if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return nil }
      let isWrapped = variable.attributes.contains {
        guard let name = $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription else {
          return false
        }
        return !["ObservationStateIgnored", "ObservationStateTracked", "ObservationIgnored"]
          .contains { name.hasSuffix($0) }
      }
      for binding in variable.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          return nil
        }
        switch binding.accessorBlock?.accessors {
        case nil:
          break
        case .getter?:
          continue
        case .accessors(let accessors)?:
          let observersOnly = accessors.allSatisfy {
            [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
          }
          guard observersOnly else { continue }
        }
        members.append((name, isWrapped ? "_\(name)" : name))
      }
    }
    return members
  }

  /// The names of the stored `var` properties a binding can write: not static, not lazy, not
  /// private, not computed, not read-only shared values (`@SharedReader`).
  static func storedProperties(of declaration: StructDeclSyntax) -> [String] {
    declaration.memberDecls.flatMap { decl -> [String] in
      guard let variable = decl.as(VariableDeclSyntax.self),
        variable.bindingSpecifier.tokenKind == .keyword(.var), !variable.isStatic,
        !variable.attributes.contains(where: {
          $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
            .hasSuffix("SharedReader") == true
        }),
        !variable.modifiers.contains(where: {
          [.keyword(.lazy), .keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
        })
      else { return [] }
      return variable.bindings.compactMap { binding in
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        switch binding.accessorBlock?.accessors {
        case nil:
          return name
        case .getter?:
          return nil
        case .accessors(let accessors)?:
          let observersOnly = accessors.allSatisfy {
            [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
          }
          return observersOnly ? name : nil
        }
      }
    }
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
