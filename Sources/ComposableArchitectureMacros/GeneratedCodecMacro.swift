import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_GeneratedCodec`: on a struct or enum whose `Codable` is synthesized, the code that writes
/// its JSON as that `Codable` does, without its generic containers
/// (`ComposableArchitecture._JSONEncodable`). `@Reducer` puts it on a feature's `Action` (and
/// on a `State` without `@ObservableState`, which writes the same code itself). The `Codable`
/// types declared inside an action (`View`, `Delegate`) keep `Codable`: a macro cannot put
/// itself on them.
public enum GeneratedCodecMacro: ScopedExtensionMacro, MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    Self.decoderMembers(of: declaration)
  }

  public static func extensions(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    Self.extensions(of: declaration, type: type)
  }

  /// The `_JSONEncodable` and `_JSONDecodable` extensions the declaration's `Codable` allows.
  static func extensions(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol
  ) -> [ExtensionDeclSyntax] {
    [Self.encoder(of: declaration, type: type), Self.decoder(of: declaration, type: type)]
      .compactMap { $0 }
  }

  /// Whether `declaration` says it is `Codable` (or `Decodable`), without code of its own or
  /// of ours for it.
  static func isSynthesizedDecodable(_ declaration: some DeclGroupSyntax) -> Bool {
    (declaration.inherits("Codable") || declaration.inherits("Decodable"))
      && !declaration.inherits("_JSONDecodable")
      && !declaration.memberDecls.contains(where: {
        $0.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters.first?.firstName
          .text == "from"
      })
  }

  /// The `_JSONDecodable` extension of a struct or enum whose synthesized `Decodable` it can
  /// read as that conformance does, or `nil`. An enum's initializer is a member
  /// (``decoderMembers(of:)``), where its values' types are named as the enum names them.
  static func decoder(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol,
    assumingCodable: Bool = false
  ) -> ExtensionDeclSyntax? {
    guard assumingCodable || Self.isSynthesizedDecodable(declaration) else { return nil }
    var body: [String] = []
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      guard structDecl.genericParameterClause == nil,
        let members = ObservableStateMacro.encodedMembers(of: structDecl)
      else { return nil }
      // NB: A constant with a value of its own is not decoded.
      let constants = Set(
        structDecl.memberDecls.compactMap { $0.as(VariableDeclSyntax.self) }
          .filter { $0.bindingSpecifier.tokenKind == .keyword(.let) }
          .flatMap(\.bindings)
          .filter { $0.initializer != nil }
          .compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text })
      // NB: Each member is read as its property's type, which its key path names exactly: no
      // conversion (`[Int]` to `[Int?]`) can pick another.
      body = ["try reader.requireObject(at: index)"]
      body += members.filter { !constants.contains($0.key) }.map {
        "self.\($0.access) = try reader.member(\"\(Self.key($0.key))\", of: index, at: \\Self.\($0.access))"
      }
    } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      // NB: In an extension, the values' types are not named: where the enum declares them is
      // out of the extension's sight. The cases' values say them.
      if assumingCodable {
        guard let enumBody = Self.enumDecoderBody(enumDecl, namingTypes: false) else {
          return nil
        }
        body = enumBody
      } else {
        guard Self.enumDecoderBody(enumDecl) != nil else { return nil }
        let decl: DeclSyntax = """
          \(raw: declaration.availability)extension \(type.trimmed): \
          ComposableArchitecture._JSONDecodable {}
          """
        return decl.cast(ExtensionDeclSyntax.self)
      }
    } else {
      return nil
    }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \
      ComposableArchitecture._JSONDecodable {
        \(raw: declaration.accessPrefix)init(\
      _json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
          \(raw: body.joined(separator: "\n    "))
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
  }

  /// An enum's `_JSONDecodable` initializer, as a member.
  static func decoderMembers(of declaration: some DeclGroupSyntax) -> [DeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self),
      Self.isSynthesizedDecodable(enumDecl), let body = Self.enumDecoderBody(enumDecl)
    else { return [] }
    return [
      """
      \(raw: declaration.accessPrefix)init(\
      _json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
        \(raw: body.joined(separator: "\n  "))
      }
      """
    ]
  }

  /// The lines that read an enum's case: `{"name":{"label":value,…}}`; `nil` when the enum
  /// codes otherwise.
  static func enumDecoderBody(_ enumDecl: EnumDeclSyntax, namingTypes: Bool = true) -> [String]? {
    guard enumDecl.genericParameterClause == nil, let cases = Self.cases(of: enumDecl),
      !cases.isEmpty
    else { return nil }
    var body = [
      "let (key, value) = try reader.soleMember(ofObject: index)",
      "try reader.requireObject(at: value)",
    ]
    for caseDecl in enumDecl.memberDecls.compactMap({ $0.as(EnumCaseDeclSyntax.self) }) {
      for element in caseDecl.elements {
        let parameters = element.parameterClause?.parameters ?? []
        let values = parameters.enumerated().map { index, parameter in
          let label = parameter.firstName.flatMap { $0.text == "_" ? nil : $0.text }
          let key = label.map(Self.key) ?? "_\(index)"
          let type = namingTypes ? ", as: (\(parameter.type.trimmedDescription)).self" : ""
          return (label.map { "\($0): " } ?? "")
            + "try reader.member(\"\(key)\", of: value\(type))"
        }
        let made =
          values.isEmpty
          ? ".\(element.name.text)" : ".\(element.name.text)(\(values.joined(separator: ", ")))"
        body.append(
          "if reader.key(key, is: \"\(Self.key(element.name.text))\") { self = \(made); return }")
      }
    }
    body.append("throw ComposableArchitecture._JSONUnsupported()")
    return body
  }

  /// Whether `declaration` says it is `Codable` (or `Encodable`) and has none of the marks of
  /// generated code already (`@ObservableState`, `@_GeneratedCodec`) or of a non-synthesized
  /// coding (generic parameters, which an extension cannot name).
  static func isSynthesizedEncodable(_ declaration: some DeclGroupSyntax) -> Bool {
    (declaration.inherits("Codable") || declaration.inherits("Encodable"))
      && !declaration.inherits("_JSONEncodable")
      && !declaration.attributes.contains("ObservableState")
      && !declaration.attributes.contains("_GeneratedCodec")
  }

  /// The `_JSONEncodable` extension of a struct or enum whose synthesized `Codable` it can
  /// write, or `nil`: a type that codes itself (its own `CodingKeys` or `encode(to:)`), a raw
  /// value enum, a generic type, a type that does not say it is `Codable`.
  static func encoder(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol,
    assumingCodable: Bool = false
  ) -> ExtensionDeclSyntax? {
    guard
      assumingCodable || declaration.inherits("Codable") || declaration.inherits("Encodable"),
      !declaration.inherits("_JSONEncodable")
    else { return nil }
    let body: String
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      guard structDecl.genericParameterClause == nil,
        let members = ObservableStateMacro.encodedMembers(of: structDecl)
      else { return nil }
      let lines = members.map { (key: Self.key($0.key), access: $0.access) }
        .sorted { Self.precedes($0.key, $1.key) }
        .map { "try json.member(\"\($0.key)\", self.\($0.access), in: &object)" }
      // NB: A struct without stored properties writes no member: its object is never mutated.
      body = """
        \(lines.isEmpty ? "let" : "var") object = json.object()
            \(lines.joined(separator: "\n    "))
            json.end(object)
        """
    } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      guard enumDecl.genericParameterClause == nil, let cases = Self.cases(of: enumDecl),
        !cases.isEmpty
      else { return nil }
      // NB: The default is for a switch whose every case holds an uninhabited payload, which
      // Swift 6 does not count as exhaustive.
      body = """
        switch self {
            \(cases.joined(separator: "\n    "))
            default: throw ComposableArchitecture._JSONUnsupported()
            }
        """
    } else {
      return nil
    }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \
      ComposableArchitecture._JSONEncodable {
        \(raw: declaration.accessPrefix)func _encodeJSON(\
      into json: inout ComposableArchitecture._JSONBuffer) throws {
          \(raw: body)
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
  }

  /// The names of types an enum's raw value may have: such an enum codes as its raw value.
  static let rawValueTypes: Set<String> = [
    "String", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
    "UInt32", "UInt64", "Double", "Float", "RawRepresentable",
  ]

  /// One `case` of the switch per case of the enum, writing `{"name":{"label":value,…}}` as
  /// synthesized `Codable` does (an unlabelled value's key is `_0`, `_1`, …); `nil` when the
  /// enum codes otherwise.
  static func cases(of declaration: EnumDeclSyntax) -> [String]? {
    let inherited = declaration.inheritanceClause?.inheritedTypes ?? []
    if inherited.contains(where: { Self.rawValueTypes.contains($0.type.lastNameComponent) }) {
      return nil
    }
    var lines: [String] = []
    for decl in declaration.memberDecls {
      if let nested = decl.as(EnumDeclSyntax.self), nested.name.text.hasSuffix("CodingKeys") {
        return nil
      }
      if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode" {
        return nil
      }
      guard let caseDecl = decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in caseDecl.elements {
        let name = Self.key(element.name.text)
        let parameters = element.parameterClause?.parameters ?? []
        guard !parameters.isEmpty else {
          lines.append("case .\(element.name.text): json.endCase(json.enumCase(\"\(name)\"))")
          continue
        }
        let values = parameters.enumerated().map { index, parameter in
          (
            key: parameter.firstName.flatMap { $0.text == "_" ? nil : Self.key($0.text) }
              ?? "_\(index)",
            binding: "v\(index)"
          )
        }
        let members = values.sorted { Self.precedes($0.key, $1.key) }.map {
          "try json.member(\"\($0.key)\", \($0.binding), in: &object)"
        }
        lines.append(
          """
          case let .\(element.name.text)(\(values.map(\.binding).joined(separator: ", "))):
                var object = json.enumCase("\(name)")
                \(members.joined(separator: "\n      "))
                json.endCase(object)
          """)
      }
    }
    return lines
  }

  /// A name as a key: without the backticks that let it be a keyword.
  static func key(_ name: String) -> String {
    name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1
      ? String(name.dropFirst().dropLast()) : name
  }

  /// Whether key `left` sorts before `right` by their UTF-8 bytes, as the encoder sorts them.
  static func precedes(_ left: String, _ right: String) -> Bool {
    left.utf8.lexicographicallyPrecedes(right.utf8)
  }
}
