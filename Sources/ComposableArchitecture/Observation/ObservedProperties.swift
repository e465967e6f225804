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
