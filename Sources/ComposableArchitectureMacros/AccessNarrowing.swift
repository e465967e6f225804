import SwiftSyntax
import SwiftSyntaxMacros

// The access of what an extension macro writes for a type declared in a `private` or
// `fileprivate` scope (a `@Reducer private struct Feature` and the `State` inside it): an
// extension written at the file's top level gives its members `internal` access, which a member
// naming the type (`Self`, a key path of it) cannot have. Such members are written `fileprivate`,
// the most a file-private type's member can be.

extension Array where Element == ExtensionDeclSyntax {
  /// The extensions, their members written `fileprivate` when `declaration` or a scope around
  /// it is `private` or `fileprivate`; unchanged otherwise.
  func narrowed(
    toScopeOf declaration: some DeclGroupSyntax, in context: some MacroExpansionContext
  ) -> [ExtensionDeclSyntax] {
    guard declaration.isInFilePrivateScope(in: context) else { return self }
    return self.map { $0.withFilePrivateMembers() }
  }
}

extension DeclGroupSyntax {
  /// Whether the declaration, or a scope around it, is `private` or `fileprivate`.
  ///
  /// A declaration a macro wrote (the `State` that `@Reducer` writes) is given no scopes around
  /// it by the compiler: the macro that writes it marks it `fileprivate` when its own scope is
  /// (see ``accessPrefix(in:)``).
  func isInFilePrivateScope(in context: some MacroExpansionContext) -> Bool {
    ([Syntax(self)] + context.lexicalContext).contains { scope in
      scope.asProtocol(WithModifiersSyntax.self)?.modifiers.contains {
        [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
      } ?? false
    }
  }

  /// What the members and types a member macro writes are written with: `fileprivate ` in a
  /// file-private scope, else as ``accessPrefix``.
  func accessPrefix(in context: some MacroExpansionContext) -> String {
    self.isInFilePrivateScope(in: context) ? "fileprivate " : self.accessPrefix
  }
}

extension ExtensionDeclSyntax {
  /// The extension with `fileprivate` on each member that says no access of its own.
  func withFilePrivateMembers() -> ExtensionDeclSyntax {
    var members = self.memberBlock.members
    for index in members.indices {
      let decl = members[index].decl
      guard var declared = decl.asProtocol(WithModifiersSyntax.self),
        !declared.modifiers.contains(where: { $0.isAccess })
      else { continue }
      declared.modifiers.append(
        DeclModifierSyntax(name: .keyword(.fileprivate), trailingTrivia: .space))
      guard let rewritten = DeclSyntax(Syntax(fromProtocol: declared)) else { continue }
      members[index].decl = rewritten
    }
    return self.with(\.memberBlock.members, members)
  }
}

extension DeclModifierSyntax {
  /// Whether the modifier is an access level (`private(set)` is not: it names a setter's).
  var isAccess: Bool {
    guard self.detail == nil else { return false }
    switch self.name.tokenKind {
    case .keyword(.private), .keyword(.fileprivate), .keyword(.internal), .keyword(.package),
      .keyword(.public), .keyword(.open):
      return true
    default:
      return false
    }
  }
}

/// An extension macro whose extensions are narrowed to the scope of the declaration they extend
/// (see `narrowed(toScopeOf:in:)`): it writes them as for any scope, in
/// ``extensions(of:attachedTo:providingExtensionsOf:conformingTo:in:)``.
public protocol ScopedExtensionMacro: ExtensionMacro {
  static func extensions(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax]
}

extension ScopedExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    try Self.extensions(
      of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
      in: context
    ).narrowed(toScopeOf: declaration, in: context)
  }
}
