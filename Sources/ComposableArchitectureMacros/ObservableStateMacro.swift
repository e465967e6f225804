import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState`: a feature's state, struct or enum, whose properties observers track
/// (`withObservationTracking` over the standard Observation module).
///
/// A struct's stored `var`s become accessors over `_name` storage (``ObservationStateTrackedMacro``)
/// and it gains a registrar with its identity. What a user reads in the declaration stays what
/// the value shows: the memberwise initializer takes the same names (init accessors), the
/// synthesized `Codable` writes the same keys (the macro writes `CodingKeys` naming the storage
/// by the property's name), and a mirror shows the same children (`CustomReflectable`). A struct
/// that writes its own `CodingKeys` keeps its stored properties as written: its properties are
/// not tracked one by one, and a store's observers see its changes as a whole.
public enum ObservableStateMacro: ScopedExtensionMacro, MemberMacro, MemberAttributeMacro {
  /// The name of the registrar a struct state stores.
  static let registrar = "_$observationRegistrar"

  /// An enum state's generated decoding, which reads its values as the enum names their types;
  /// a struct state's registrar, identity and coding keys.
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard !declaration.inherits("ObservableState") else { return [] }
    guard let structDecl = declaration.as(StructDeclSyntax.self) else {
      return GeneratedCodecMacro.decoderMembers(of: declaration)
    }
    let access = declaration.accessPrefix(in: context)
    var members: [DeclSyntax] = [
      """
      @ComposableArchitecture.ObservationStateIgnored
      var \(raw: Self.registrar) = ComposableArchitecture.ObservationStateRegistrar()
      """,
      """
      \(raw: access)var _$id: ComposableArchitecture.ObservableStateID {
        \(raw: Self.registrar).id
      }
      """,
      """
      \(raw: access)mutating func _$willModify() {
        \(raw: Self.registrar)._$willModify()
      }
      """,
    ]
    if let keys = Self.codingKeys(of: structDecl) {
      members.append(
        """
        enum CodingKeys: \(raw: keys.isEmpty ? "" : "String, ")CodingKey {
          \(raw: keys.joined(separator: "\n  "))
        }
        """)
    }
    return members
  }

  /// `@ObservationStateTracked` on each stored `var` of a struct that is tracked.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self),
      !declaration.inherits("ObservableState"), Self.tracksProperties(of: structDecl),
      let variable = member.as(VariableDeclSyntax.self), variable.trackableName != nil
    else { return [] }
    return ["@ComposableArchitecture.ObservationStateTracked"]
  }

  /// Whether the struct's properties are tracked one by one: not when it writes its own
  /// `CodingKeys`, which name the stored properties as written.
  static func tracksProperties(of declaration: StructDeclSyntax) -> Bool {
    !declaration.memberDecls.contains {
      $0.as(EnumDeclSyntax.self)?.name.text == "CodingKeys"
        || $0.as(StructDeclSyntax.self)?.name.text == "CodingKeys"
        || $0.as(TypeAliasDeclSyntax.self)?.name.text == "CodingKeys"
    }
  }

  /// The cases of the `CodingKeys` a tracked struct gets, so that its synthesized `Codable`
  /// writes a tracked property's storage (`_count`) under the property's name and leaves the
  /// registrar out; `nil` for a struct that is not tracked.
  static func codingKeys(of declaration: StructDeclSyntax) -> [String]? {
    guard Self.tracksProperties(of: declaration) else { return nil }
    return declaration.memberDecls.flatMap { decl -> [String] in
      guard let variable = decl.as(VariableDeclSyntax.self), !variable.isStatic,
        !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) })
      else { return [] }
      if let name = variable.trackableName { return ["case _\(name) = \"\(name)\""] }
      return variable.bindings.compactMap { binding in
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        return binding.isStored ? "case \(name)" : nil
      }
    }
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
    // The properties that became accessors, whose key paths no longer say their names.
    let tracked =
      Self.tracksProperties(of: structDecl)
      ? structDecl.memberDecls.compactMap { $0.as(VariableDeclSyntax.self)?.trackableName } : []
    let observed =
      tracked.isEmpty
      ? "[]"
      : "[\n"
        + tracked.map {
          "      ComposableArchitecture._ObservedProperty(\"\($0)\", \\Self.\($0)),\n"
        }.joined() + "    ]"
    // The storage of each, which `forEach` changes in place (a key path to a computed property
    // copies the value out and writes it back).
    let storageCases = tracked.map {
      "    if keyPath == \\Self.\($0) { return \\Self._\($0) }\n"
    }
    let modify =
      tracked.isEmpty
      ? ""
      : """

        \(declaration.accessPrefix)static func _$storage(of keyPath: AnyKeyPath) -> AnyKeyPath? {
      \(storageCases.joined())    return nil
        }
      """
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \
      ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields, \
      ComposableArchitecture._ObservedProperties {
        \(raw: declaration.accessPrefix)static var _$bindableFields: \
      [ComposableArchitecture._BindableField<Self>] {
          [
            \(raw: fields.joined(separator: "\n      "))
          ]
        }
        \(raw: declaration.accessPrefix)static var _$observedProperties: \
      [ComposableArchitecture._ObservedProperty] {
          \(raw: observed)
        }\(raw: modify)
      }
      """
    let mirror = Self.mirrorExtension(of: structDecl, type: type).map { [$0] } ?? []
    guard let members = Self.encodedMembers(of: structDecl),
      !declaration.inherits("_StepChanging")
    else { return [decl.cast(ExtensionDeclSyntax.self)] + mirror + codec }
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
    return [decl.cast(ExtensionDeclSyntax.self), changes.cast(ExtensionDeclSyntax.self)] + mirror
      + codec
  }

  /// A mirror that shows the struct as it is declared: a tracked property under its own name, a
  /// wrapped one as its storage (`_destination`, as a mirror shows a property wrapper), and not
  /// the registrar; `nil` when the struct has a mirror of its own.
  static func mirrorExtension(
    of declaration: StructDeclSyntax, type: some TypeSyntaxProtocol
  ) -> ExtensionDeclSyntax? {
    let ownsMirror =
      declaration.inherits("CustomReflectable")
      || declaration.memberDecls.contains {
        $0.as(VariableDeclSyntax.self)?.bindings.contains {
          $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "customMirror"
        } == true
      }
    guard !ownsMirror else { return nil }
    let tracks = Self.tracksProperties(of: declaration)
    var children: [String] = []
    for decl in declaration.memberDecls {
      guard let variable = decl.as(VariableDeclSyntax.self), !variable.isStatic,
        !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) })
      else { continue }
      if tracks, let name = variable.trackableName {
        children.append("\"\(name)\": self._\(name) as Any")
        continue
      }
      let isWrapped = variable.isWrapped
      for binding in variable.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { continue }
        guard binding.isStored else { continue }
        let label = isWrapped ? "_\(name)" : name
        children.append("\"\(label)\": self.\(label) as Any")
      }
    }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): Swift.CustomReflectable {
        \(raw: declaration.accessPrefix)var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: [\(raw: children.isEmpty ? ":" : children.joined(separator: ", "))],
            displayStyle: .struct
          )
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
  }

  /// The stored properties the synthesized `Codable` writes, by key, with the expression that
  /// reads each (a property wrapper's storage, `_name`); `nil` when the struct writes itself
  /// otherwise (its own `CodingKeys` or `encode(to:)`, a lazy property), and no code is made.
  ///
  /// In a struct whose properties `@ObservableState` tracks, a tracked property is read through
  /// its storage too (`_count`): the generated code does not tell observers it read.
  static func encodedMembers(of declaration: StructDeclSyntax) -> [(key: String, access: String)]? {
    var members: [(key: String, access: String)] = []
    let tracks =
      declaration.attributes.contains("ObservableState") && Self.tracksProperties(of: declaration)
    for decl in declaration.memberDecls {
      if let nested = decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" { return nil }
      if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode" {
        return nil
      }
      guard let variable = decl.as(VariableDeclSyntax.self), !variable.isStatic else { continue }
      if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return nil }
      let isWrapped = variable.isWrapped
      for binding in variable.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          return nil
        }
        guard binding.isStored else { continue }
        let isTracked = tracks && variable.trackableName != nil
        members.append((name, isWrapped || isTracked ? "_\(name)" : name))
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
        return binding.isStored ? name : nil
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
