import SwiftSyntax

// What the macros read of a declaration: its attributes, what it inherits, its access level.

extension AttributeListSyntax {
  /// Whether one of the attributes is `name` (or `Module.name`), with or without arguments.
  func contains(_ name: String) -> Bool {
    self.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      return attribute.attributeName.lastNameComponent == name
    }
  }
}

extension TypeSyntax {
  /// `Reducer` for `ComposableArchitecture.Reducer<A, B>`: the last name, without arguments.
  var lastNameComponent: String {
    if let member = self.as(MemberTypeSyntax.self) { return member.name.text }
    if let identifier = self.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    return self.trimmedDescription
  }

  /// `[A, B]` for `Name<A, B>` or `Module.Name<A, B>`.
  var genericArguments: [String] {
    let clause =
      self.as(IdentifierTypeSyntax.self)?.genericArgumentClause
      ?? self.as(MemberTypeSyntax.self)?.genericArgumentClause
    return clause?.arguments.map(\.argument.trimmedDescription) ?? []
  }
}

extension DeclGroupSyntax {
  /// Whether the declaration says it conforms to `name` (or `Module.name`).
  func inherits(_ name: String) -> Bool {
    self.inheritanceClause?.inheritedTypes.contains { $0.type.lastNameComponent == name } ?? false
  }

  /// `public `, `package ` or nothing: what members made for the declaration are written with.
  var accessPrefix: String {
    for modifier in self.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }

  /// The `@available` attributes, written before an extension of the declaration.
  var availability: String {
    self.attributes.compactMap { element -> String? in
      guard case .attribute(let attribute) = element,
        attribute.attributeName.trimmedDescription == "available"
      else { return nil }
      return attribute.trimmedDescription + " "
    }.joined()
  }

  /// The member declarations.
  var memberDecls: [DeclSyntax] {
    self.memberBlock.members.map(\.decl)
  }

  /// The name of a nested type or type alias, when `decl` is one.
  static func nestedTypeName(_ decl: DeclSyntax) -> String? {
    if let decl = decl.as(StructDeclSyntax.self) { return decl.name.text }
    if let decl = decl.as(EnumDeclSyntax.self) { return decl.name.text }
    if let decl = decl.as(ClassDeclSyntax.self) { return decl.name.text }
    if let decl = decl.as(TypeAliasDeclSyntax.self) { return decl.name.text }
    return nil
  }

  /// Whether a type or type alias named `name` is declared among the members.
  func declaresType(_ name: String) -> Bool {
    self.memberDecls.contains { Self.nestedTypeName($0) == name }
  }

  /// The `body` property among the members, when there is one.
  var bodyProperty: (decl: VariableDeclSyntax, binding: PatternBindingSyntax)? {
    for decl in self.memberDecls {
      guard let variable = decl.as(VariableDeclSyntax.self) else { continue }
      for binding in variable.bindings
      where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body" {
        return (variable, binding)
      }
    }
    return nil
  }

  /// The `reduce(into:action:)` method among the members, when there is one.
  var reduceMethod: FunctionDeclSyntax? {
    self.memberDecls.lazy.compactMap { $0.as(FunctionDeclSyntax.self) }.first {
      $0.name.text == "reduce"
        && $0.signature.parameterClause.parameters.map(\.firstName.text) == ["into", "action"]
    }
  }
}

extension VariableDeclSyntax {
  /// Whether the declaration is static (or class).
  var isStatic: Bool {
    self.modifiers.contains {
      $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
    }
  }
}
