import Dependencies

/// Identifies one child feature: the key path its state lives at and, for collection elements or
/// identifiable children, the element's identity.
// NB: Unchecked because key paths and `AnyHashable` are not `Sendable`, but both are immutable
// values here: a key path is never mutated, and identities are only hashed and compared.
@usableFromInline
struct NavigationID: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
  let identity: AnyHashable?
  /// What the child is called in descriptions, when its key path cannot say (a property
  /// wrapper's projection, such as `\.$destination`, is a computed key path without a name).
  let name: String?

  init(keyPath: AnyKeyPath, identity: AnyHashable?, name: String? = nil) {
    self.keyPath = keyPath
    self.identity = identity
    self.name = name
  }

  /// An identifier for a child whose identity is taken from its value when it is `Identifiable`;
  /// an alert's or a dialog's, new for each one made, is kept out of an effect's recorded shape.
  init(keyPath: AnyKeyPath, value: Any) {
    func open<T: Identifiable>(_ value: T) -> AnyHashable { AnyHashable(value.id) }
    let id = (value as? any Identifiable).map { open($0) }
    self.init(
      keyPath: keyPath,
      identity: value is any _EphemeralState
        ? id.map { AnyHashable(EphemeralIdentity(id: $0)) } : id
    )
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.identity == rhs.identity
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(self.keyPath)
    hasher.combine(self.identity)
  }
}

/// The path from the root feature to a child feature, through every `ifLet`, `forEach` and
/// `ifCaseLet` on the way.
public struct NavigationIDPath: Hashable, Sendable {
  var path: [NavigationID] = []

  /// The root feature's path.
  public init() {}

  init(path: [NavigationID]) {
    self.path = path
  }

  func appending(_ element: NavigationID) -> Self {
    Self(path: self.path + [element])
  }

  func starts(with prefix: Self) -> Bool {
    self.path.starts(with: prefix.path)
  }
}

private enum NavigationIDPathKey: DependencyKey {
  static let liveValue = NavigationIDPath()
  static let testValue = NavigationIDPath()
}

extension DependencyValues {
  @usableFromInline
  var navigationIDPath: NavigationIDPath {
    get { self[NavigationIDPathKey.self] }
    set { self[NavigationIDPathKey.self] = newValue }
  }
}

/// Runs `operation` with the navigation path of a child feature: what `withDependencies` would
/// do, without its bookkeeping, since only this one value changes.
@usableFromInline
func withNavigationIDPath<R>(_ path: NavigationIDPath, operation: () -> R) -> R {
  var dependencies = DependencyValues._current
  dependencies.navigationIDPath = path
  return DependencyValues.$_current.withValue(dependencies, operation: operation)
}
