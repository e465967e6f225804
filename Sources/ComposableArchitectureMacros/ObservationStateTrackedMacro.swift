import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservationStateTracked`: what ``ObservableStateMacro`` puts on each stored `var` of a
/// struct state. The property becomes accessors over a stored `_name`, which tell the state's
/// registrar of each read and write: a write tells observers unless it leaves the same state (a
/// child changed in place keeps its identity) or an equal value.
public enum ObservationStateTrackedMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = variable.trackableName
    else { return [] }
    let registrar = ObservableStateMacro.registrar
    let identity = "ComposableArchitecture._$modifyIdentity"
    return [
      """
      @storageRestrictions(initializes: _\(raw: name))
      init(initialValue) {
        _\(raw: name) = initialValue
      }
      """,
      """
      get {
        \(raw: registrar).access(self, keyPath: \\.\(raw: name))
        return _\(raw: name)
      }
      """,
      """
      set {
        \(raw: registrar).mutate(self, keyPath: \\.\(raw: name), &_\(raw: name), newValue, \
      \(raw: identity), ComposableArchitecture._$shouldNotifyObservers)
      }
      """,
      """
      _modify {
        let identity = \(raw: registrar).willModify(self, keyPath: \\.\(raw: name), &_\(raw: name), \(raw: identity))
        defer {
          \(raw: registrar).didModify(self, keyPath: \\.\(raw: name), &_\(raw: name), identity, \(raw: identity))
        }
        yield &_\(raw: name)
      }
      """,
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = variable.trackableName, let binding = variable.bindings.first
    else { return [] }
    // The storage: the property's type and initial value, file-private when the property is.
    let access = variable.modifiers.contains {
      [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) && $0.detail == nil
    }
    let type = binding.typeAnnotation.map { $0.trimmedDescription } ?? ""
    let initializer = binding.initializer.map { " \($0.trimmedDescription)" } ?? ""
    return ["\(raw: access ? "private " : "")var _\(raw: name)\(raw: type)\(raw: initializer)"]
  }
}

extension VariableDeclSyntax {
  /// The name of a stored property that ``ObservationStateTrackedMacro`` turns into accessors: a
  /// single `var`, not static or lazy, weak or unowned, with no accessors, observers or
  /// attributes other than the mark itself (a property wrapper keeps its own storage); `nil`
  /// otherwise.
  var trackableName: String? {
    guard self.bindingSpecifier.tokenKind == .keyword(.var), !self.isStatic,
      self.bindings.count == 1, let binding = self.bindings.first,
      binding.accessorBlock == nil,
      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      !name.hasPrefix("_"),
      !self.modifiers.contains(where: {
        [.keyword(.lazy), .keyword(.weak), .keyword(.unowned)].contains($0.name.tokenKind)
      }),
      self.attributes.allSatisfy({
        $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
          .hasSuffix("ObservationStateTracked") == true
      })
    else { return nil }
    return name
  }
}

extension VariableDeclSyntax {
  /// Whether the property has a property wrapper: an attribute other than the observation marks.
  var isWrapped: Bool {
    self.attributes.contains {
      guard let name = $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription else {
        return false
      }
      return !["ObservationStateIgnored", "ObservationStateTracked", "ObservationIgnored"]
        .contains { name.hasSuffix($0) }
    }
  }
}

extension PatternBindingSyntax {
  /// Whether the binding is a stored property: no accessors, or only `willSet` and `didSet`.
  var isStored: Bool {
    switch self.accessorBlock?.accessors {
    case nil:
      return true
    case .getter?:
      return false
    case .accessors(let accessors)?:
      return accessors.allSatisfy {
        [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
      }
    }
  }
}
