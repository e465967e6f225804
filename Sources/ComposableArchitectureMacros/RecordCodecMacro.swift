import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_RecordCodec`: on a struct or enum that does not say it is `Codable`, a `Codable`
/// conformance in the shape synthesized `Codable` would have, written member by member through
/// ``_RecordCoding``: a member whose type codes is coded by its conformance; one that only
/// encodes is written by reflection; one that cannot be rebuilt throws, naming its type and where
/// it is. `@Reducer` puts it on a feature's `State` and `Action`, and it puts itself on the
/// structs and enums declared inside them, so that a recording replays a feature as it is written.
///
/// A type that conforms to `Codable` elsewhere (an extension in another file) keeps that
/// conformance: the compiler tells the macro, which then writes nothing.
public enum RecordCodecMacro: ScopedExtensionMacro, MemberAttributeMacro {
  public static func extensions(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // NB: Only what the type does not conform to already, wherever that is declared.
    let missing = Set(protocols.map(\.lastNameComponent))
    let bindable =
      missing.contains("_BindableFields")
      ? Self.bindableFieldsExtension(of: declaration, type: type).map { [$0] } ?? [] : []
    guard missing.contains("Decodable"), missing.contains("Encodable"),
      let codable = Self.codableExtension(of: declaration, type: type)
    else { return bindable }
    // The code that writes and reads its JSON without `Codable`'s containers, as the macros
    // write it for a type whose `Codable` is synthesized: the same bytes, read the same way.
    var fast: [ExtensionDeclSyntax] = []
    if missing.contains("_JSONEncodable"),
      let encoder = GeneratedCodecMacro.encoder(of: declaration, type: type, assumingCodable: true)
    {
      fast.append(encoder)
    }
    if missing.contains("_JSONDecodable"),
      let decoder = GeneratedCodecMacro.decoder(of: declaration, type: type, assumingCodable: true)
    {
      fast.append(decoder)
    }
    return [codable] + fast + bindable
  }

  /// For a state written as TCA's were before `@ObservableState`, with `@BindingState` fields:
  /// the fields bindings write, listed as `@ObservableState` lists them, so that a recording
  /// names the field a binding action writes (`\.$name`) and finds it again on replay.
  static func bindableFieldsExtension(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol
  ) -> ExtensionDeclSyntax? {
    guard let structDecl = declaration.as(StructDeclSyntax.self),
      !structDecl.attributes.contains("ObservableState")
    else { return nil }
    let bindingStates = Set(
      structDecl.memberDecls.compactMap { $0.as(VariableDeclSyntax.self) }
        .filter { $0.attributes.contains("BindingState") }
        .flatMap {
          $0.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        }
    )
    guard !bindingStates.isEmpty else { return nil }
    let fields = ObservableStateMacro.storedProperties(of: structDecl).map { name in
      bindingStates.contains(name)
        ? "ComposableArchitecture._BindableField(\"\(name)\", \\.$\(name).wrappedValue),"
        : "ComposableArchitecture._BindableField(\"\(name)\", \\.\(name)),"
    }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): ComposableArchitecture._BindableFields {
        \(raw: declaration.accessPrefix)static var _$bindableFields: \
      [ComposableArchitecture._BindableField<Self>] {
          [
            \(raw: fields.joined(separator: "\n      "))
          ]
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
  }

  /// The `Codable` extension of a struct or enum it applies to (see ``applies(to:)``), or `nil`.
  static func codableExtension(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol
  ) -> ExtensionDeclSyntax? {
    guard Self.applies(to: declaration) else { return nil }
    let access = declaration.accessPrefix
    let body: (decode: [String], encode: [String])?
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      body = Self.structBody(structDecl)
    } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      body = Self.enumBody(enumDecl)
    } else {
      body = nil
    }
    guard let body else { return nil }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): Swift.Codable {
        \(raw: access)init(from decoder: any Swift.Decoder) throws {
          \(raw: body.decode.joined(separator: "\n    "))
        }
        \(raw: access)func encode(to encoder: any Swift.Encoder) throws {
          \(raw: body.encode.joined(separator: "\n    "))
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    let name = node.attributeName.lastNameComponent
    guard let level = Self.levels.firstIndex(of: name), level + 1 < Self.levels.count else {
      return []
    }
    return Self.attributes(forNested: member, level: level + 1)
  }

  /// The macro's names, one per level of nesting: an expansion may not expand the macro it
  /// belongs to, so the types declared inside a type get the next level's name. Four levels
  /// reach `Feature.State.Weather.Day`.
  static let levels = ["_RecordCodec", "_RecordCodec1", "_RecordCodec2", "_RecordCodec3"]

  /// The attribute of `level` for a struct or enum declared inside a type it codes, when it
  /// needs one.
  static func attributes(
    forNested member: some DeclSyntaxProtocol, level: Int = 0
  ) -> [AttributeSyntax] {
    let nested: (any DeclGroupSyntax)? =
      member.as(StructDeclSyntax.self) ?? member.as(EnumDeclSyntax.self)
    guard let nested, Self.applies(to: nested),
      !Self.levels.contains(where: nested.attributes.contains)
    else { return [] }
    return ["@ComposableArchitecture.\(raw: Self.levels[level])"]
  }

  /// Whether the macro writes a conformance for `declaration`: a struct or enum that says
  /// nothing of `Codable`, is not generic, and can be extended from outside it (a `private`
  /// type cannot; a `fileprivate` one, as `@Reducer` writes a `State` in a file-private scope,
  /// can, from the file).
  static func applies(to declaration: some DeclGroupSyntax) -> Bool {
    guard declaration.is(StructDeclSyntax.self) || declaration.is(EnumDeclSyntax.self),
      !["Codable", "Decodable", "Encodable"].contains(where: declaration.inherits),
      !declaration.modifiers.contains(where: { $0.name.tokenKind == .keyword(.private) })
    else { return false }
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      return structDecl.genericParameterClause == nil
    }
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return enumDecl.genericParameterClause == nil
    }
    return false
  }

  // MARK: - Structs

  static func structBody(_ declaration: StructDeclSyntax) -> (decode: [String], encode: [String])? {
    guard let members = ObservableStateMacro.encodedMembers(of: declaration) else { return nil }
    // NB: A `let` with a value of its own is written, never read back, as synthesized
    // `Decodable` leaves it.
    let constants = Set(
      declaration.memberDecls.compactMap { $0.as(VariableDeclSyntax.self) }
        .filter { $0.bindingSpecifier.tokenKind == .keyword(.let) }
        .flatMap(\.bindings)
        .filter { $0.initializer != nil }
        .compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text })
    let read = members.filter { !constants.contains($0.key) }
    var decode = [
      "let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)"
    ]
    decode += read.map {
      "self.\($0.access) = try ComposableArchitecture._RecordCoding.decode(container, \"\(GeneratedCodecMacro.key($0.key))\")"
    }
    var encode = [
      "var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)"
    ]
    encode += members.map {
      "try ComposableArchitecture._RecordCoding.encode(self.\($0.access), to: &container, \"\(GeneratedCodecMacro.key($0.key))\")"
    }
    return (decode, encode)
  }

  // MARK: - Enums

  static func enumBody(_ declaration: EnumDeclSyntax) -> (decode: [String], encode: [String])? {
    let inherited = declaration.inheritanceClause?.inheritedTypes ?? []
    if inherited.contains(where: {
      GeneratedCodecMacro.rawValueTypes.contains($0.type.lastNameComponent)
    }) {
      return (
        [
          "let rawValue: RawValue = try decoder.singleValueContainer().decode(RawValue.self)",
          "guard let value = Self(rawValue: rawValue) else {",
          "  throw Swift.DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: \"No case of \\(Self.self) has the raw value \\(rawValue)\"))",
          "}",
          "self = value",
        ],
        [
          "var container = encoder.singleValueContainer()",
          "try container.encode(self.rawValue)",
        ]
      )
    }
    var decodeCases: [String] = []
    var encodeCases: [String] = []
    for decl in declaration.memberDecls {
      if let nested = decl.as(EnumDeclSyntax.self), nested.name.text.hasSuffix("CodingKeys") {
        return nil
      }
      guard let caseDecl = decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in caseDecl.elements {
        let name = element.name.text
        let key = GeneratedCodecMacro.key(name)
        let parameters = element.parameterClause?.parameters ?? []
        guard !parameters.isEmpty else {
          decodeCases.append("case \"\(key)\": self = .\(name)")
          encodeCases.append(
            "case .\(name): _ = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init(\"\(key)\"))"
          )
          continue
        }
        let values = parameters.enumerated().map { index, parameter in
          (
            label: parameter.firstName.flatMap { $0.text == "_" ? nil : $0.text },
            key: parameter.firstName.flatMap {
              $0.text == "_" ? nil : GeneratedCodecMacro.key($0.text)
            } ?? "_\(index)",
            binding: "v\(index)"
          )
        }
        let arguments = values.map {
          ($0.label.map { "\($0): " } ?? "")
            + "try ComposableArchitecture._RecordCoding.decode(values, \"\($0.key)\")"
        }
        decodeCases.append(
          """
          case "\(key)":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .\(name)(\(arguments.joined(separator: ", ")))
          """)
        let writes = values.map {
          "try ComposableArchitecture._RecordCoding.encode(\($0.binding), to: &values, \"\($0.key)\")"
        }
        encodeCases.append(
          """
          case let .\(name)(\(values.map(\.binding).joined(separator: ", "))):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("\(key)"))
                \(writes.joined(separator: "\n      "))
          """)
      }
    }
    guard !decodeCases.isEmpty else {
      // NB: An enum without cases has no value to code.
      return (
        ["throw ComposableArchitecture._RecordCoding.noCase(Self.self, decoder.codingPath)"],
        []
      )
    }
    let decode =
      [
        "let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)",
        "let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)",
        "switch caseKey.stringValue {",
      ] + decodeCases + [
        "default: throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)",
        "}",
      ]
    let encode =
      [
        "var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)",
        "switch self {",
      ] + encodeCases + [
        // NB: Swift 6 rejects a switch whose every case holds an uninhabited payload (a child's
        // `Action` without cases) as not exhaustive; a default keeps it compiling.
        "default: throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)",
        "}",
      ]
    return (decode, encode)
  }
}
