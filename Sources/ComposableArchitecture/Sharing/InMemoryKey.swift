import Dependencies
import Foundation

/// A place in memory, named by a string, that lasts as long as its storage (the app's run, or a
/// test's): `@Shared(.inMemory("count")) var count = 0`.
public struct InMemoryKey<Value>: SharedKey, @unchecked Sendable {
  // NB: Unchecked: the storage locks; the key holds nothing else but a string.
  let key: String
  let storage: InMemoryStorage

  /// The storage and the name.
  public var id: [AnyHashable] { [AnyHashable(ObjectIdentifier(self.storage)), AnyHashable(key)] }

  public func load(initialValue: Value?) -> Value? {
    self.storage.values.withValue { $0[self.key] as? Value }
  }

  public func save(_ value: Value) {
    self.storage.values.withValue { $0[self.key] = value }
  }
}

extension InMemoryKey: CustomStringConvertible {
  public var description: String { ".inMemory(\(String(reflecting: self.key)))" }
}

extension SharedReaderKey {
  /// The place in memory named `key`, in `@Dependency(\.defaultInMemoryStorage)`.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    @Dependency(\.defaultInMemoryStorage) var storage
    return InMemoryKey(key: key, storage: storage)
  }
}

/// Where ``SharedReaderKey/inMemory(_:)`` keeps its values.
public final class InMemoryStorage: @unchecked Sendable {
  // NB: Unchecked: the values are only reached under the lock.
  let values = _Locked<[String: Any]>([:])

  /// An empty storage.
  public init() {}
}

private enum InMemoryStorageKey: DependencyKey {
  static let liveValue = InMemoryStorage()
  static var testValue: InMemoryStorage { InMemoryStorage() }
}

extension DependencyValues {
  /// Where in-memory shared values live: one for the app; in tests, one for each test's
  /// dependencies, so that tests do not see each other's values.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[InMemoryStorageKey.self] }
    set { self[InMemoryStorageKey.self] = newValue }
  }
}
