import ConcurrencyExtras

/// A property of an ``ObservableState()`` struct that became accessors: its name, which its key
/// path no longer tells (a key path to a computed property describes itself by an address).
public struct _ObservedProperty: @unchecked Sendable {
  // NB: Unchecked: the key path is immutable and only read.
  let name: String
  let keyPath: AnyKeyPath
  let valueType: Any.Type

  public init<Root, Value>(_ name: String, _ keyPath: KeyPath<Root, Value>) {
    self.name = name
    self.keyPath = keyPath
    self.valueType = Value.self
  }
}

/// The names of the tracked properties a struct state lists, so that a key path through them
/// is named as it was written (`\.todos`, `\.child.rows`).
public protocol _ObservedProperties {
  /// The properties that became accessors, each with its name and key path.
  static var _$observedProperties: [_ObservedProperty] { get }
  /// The key path to the storage of the tracked property `keyPath` names (`\._todos` for
  /// `\.todos`); `nil` when `keyPath` is not one of them.
  static func _$storage(of keyPath: AnyKeyPath) -> AnyKeyPath?
}

// NB: Key paths are not `Sendable`; the cache only holds them and their names.
nonisolated(unsafe) private let namedKeyPaths = LockIsolated<[AnyKeyPath: String?]>([:])

extension AnyKeyPath {
  /// The name of the last property a key path reads, as the states it goes through list it
  /// (``_ObservedProperties``): `nil` when they do not list it.
  var observedPropertyName: String? {
    nonisolated(unsafe) let keyPath = self
    if let cached = namedKeyPaths.withValue({ $0[keyPath] }) { return cached }
    let name = Self.name(of: self, from: type(of: self).rootType, through: nil, depth: 3)
    namedKeyPaths.withValue { $0[keyPath] = name }
    return name
  }

  private static func name(
    of keyPath: AnyKeyPath, from root: Any.Type, through prefix: AnyKeyPath?, depth: Int
  ) -> String? {
    guard depth > 0, let properties = (root as? any _ObservedProperties.Type)?._$observedProperties
    else { return nil }
    for property in properties {
      guard let path = prefix.map({ $0.appending(path: property.keyPath) }) ?? property.keyPath
      else { continue }
      if path == keyPath { return property.name }
    }
    for property in properties {
      guard let path = prefix.map({ $0.appending(path: property.keyPath) }) ?? property.keyPath,
        let name = Self.name(of: keyPath, from: property.valueType, through: path, depth: depth - 1)
      else { continue }
      return name
    }
    return nil
  }
}

extension _ObservedProperties {
  /// No tracked property: a key path is applied as it is.
  public static func _$storage(of keyPath: AnyKeyPath) -> AnyKeyPath? { nil }
}

/// How a reducer changes the collection of states at a key path in place, when the change can
/// only be to its elements, in place (`forEach`: an element's reducer cannot change its id).
///
/// A key path to a tracked property is a key path to a computed property, which a key path
/// applies by copying the value out and writing it back: a collection the body changes is
/// copied. Such a change is one the property's accessors would tell no observer of (the
/// collection's ids stay the same), so the storage is changed directly. Found once, when the
/// reducer is made.
@usableFromInline
struct _InPlace<Root, Value>: @unchecked Sendable {
  // NB: Unchecked: the key paths are immutable, and only read.
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  private let storage: WritableKeyPath<Root, Value>

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    let storage = (Root.self as? any _ObservedProperties.Type)?._$storage(of: keyPath)
    self.storage = storage as? WritableKeyPath<Root, Value> ?? keyPath
  }

  /// Runs `body` on the value at the key path in `root`.
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    body(&root[keyPath: self.storage])
  }
}
