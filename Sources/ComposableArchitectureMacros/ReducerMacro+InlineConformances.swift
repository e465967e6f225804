import SwiftSyntax
import SwiftSyntaxBuilder

// The `State` and `Action` that `@Reducer` writes for an enum of features carry their
// conformances in their own declarations, not in extensions that macros attached to them write.
//
// NB: The extensions a macro writes for a type that another macro wrote join the file while the
// compiler type-checks it. Swift 6.3 then crashes (signal 11, in `TypeCheckPrimaryFileRequest`)
// when a `@Reducer` enum is followed in its file by another declaration that macros extend (a
// `@Reducer` struct, an `@ObservableState` one). So what `@ObservableState`, `@_RecordCodec` and
// `@_GeneratedCodec` would write in extensions is written in the type itself, and
// `@CasePathable` finds its protocols already in the inheritance clause and writes no extension.

/// How a generated `State` or `Action` gets its `Codable` and JSON code.
enum InlineCodec {
  /// Its own `Codable` conformance, as `@_RecordCodec` writes it.
  case record
  /// The JSON code its synthesized `Codable` allows, as `@_GeneratedCodec` writes it.
  case generated
  /// None.
  case none
}

extension ReducerMacro {
  /// The enum `declaration` with `attributes`, and with the conformances and members that
  /// `@ObservableState` (when `isObservableState`) and `codec` would write in extensions written
  /// in it instead.
  static func withConformancesInline(
    _ declaration: DeclSyntax, attributes: [String], isObservableState: Bool, codec: InlineCodec
  ) -> DeclSyntax {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else { return declaration }
    let type: TypeSyntax = "\(enumDecl.name.trimmed)"
    var extensions: [ExtensionDeclSyntax] = []
    var members: [DeclSyntax] = []
    var conformances = ["CasePathable", "CasePathIterable"]
    if isObservableState { conformances.append("ComposableArchitecture.ObservableState") }
    switch codec {
    case .record:
      guard let codable = RecordCodecMacro.codableExtension(of: enumDecl, type: type) else {
        break
      }
      let fast = [
        GeneratedCodecMacro.encoder(of: enumDecl, type: type, assumingCodable: true),
        GeneratedCodecMacro.decoder(of: enumDecl, type: type, assumingCodable: true),
      ].compactMap { $0 }
      // NB: `Codable` comes with `_JSONEncodable` and `_JSONDecodable`, which refine it. Left
      // unnamed, it does not clash with a user's own `extension Feature.State: Codable {}`,
      // whose conformance then finds these members (they write what synthesized code would).
      members = codable.memberBlock.members.map(\.decl)
      extensions = fast
      if fast.count < 2 { conformances.append("Swift.Codable") }
    case .generated:
      members = GeneratedCodecMacro.decoderMembers(of: enumDecl)
      extensions = GeneratedCodecMacro.extensions(of: enumDecl, type: type)
    case .none:
      break
    }
    let inherited =
      (enumDecl.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? [])
    for name in extensions.flatMap({
      $0.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
    }) where !conformances.contains(name) {
      conformances.append(name)
    }
    let inheritance = (inherited + conformances.filter { !inherited.contains($0) })
      .joined(separator: ", ")
    members += extensions.flatMap { $0.memberBlock.members.map(\.decl) }
    let body =
      enumDecl.memberBlock.members.map { $0.decl.trimmedDescription }
      + members.map(\.trimmedDescription)
    let modifiers = enumDecl.modifiers.map { $0.trimmedDescription + " " }.joined()
    let inlined: DeclSyntax = """
      \(raw: attributes.joined(separator: "\n"))
      \(raw: modifiers)enum \(enumDecl.name.trimmed): \(raw: inheritance) {
        \(raw: body.joined(separator: "\n"))
      }
      """
    return inlined.formatted().cast(DeclSyntax.self)
  }
}
