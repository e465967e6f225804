import Dependencies
import Foundation

/// A value in user defaults: `@Shared(.appStorage("isOn")) var isOn = false`, as SwiftUI's
/// `@AppStorage` keeps it (Foundation's `UserDefaults`, which Linux has too).
///
/// Holds what user defaults hold: `Bool`, `Int`, `Double`, `String`, `URL`, `Data`, `Date`,
/// an enum whose raw value is an `Int` or a `String`, and optionals of them.
public struct AppStorageKey<Value: Sendable>: SharedKey {
  let key: String
  let store: _UserDefaultsBox
  let read: @Sendable (UserDefaults, String) -> Value?
  let write: @Sendable (UserDefaults, String, Value) -> Void
  /// What the key holds after this key's last write, so that it does not take it for a change.
  private let written = LockIsolated<String?>(nil)

  init(
    key: String, store: _UserDefaultsBox,
    read: @escaping @Sendable (UserDefaults, String) -> Value?,
    write: @escaping @Sendable (UserDefaults, String, Value) -> Void
  ) {
    self.key = key
    self.store = store
    self.read = read
    self.write = write
  }

  /// The user defaults and the key.
  public var id: [AnyHashable] { [AnyHashable(ObjectIdentifier(self.store.defaults)), key] }

  public func load(initialValue: Value?) -> Value? {
    self.read(self.store.defaults, self.key)
  }

  public func save(_ value: Value) {
    self.write(self.store.defaults, self.key, value)
    self.written.setValue(String(describing: self.store.defaults.object(forKey: self.key)))
  }

  public func subscribe(
    initialValue: Value?, didSet: @escaping @Sendable (_ newValue: Value?) -> Void
  ) -> SharedSubscription {
    let (key, store, read, written) = (self.key, self.store, self.read, self.written)
    // NB: Foundation on Linux does not say when user defaults change: what the key holds is
    // looked at every half second, and reported when it differs.
    @Sendable func fingerprint() -> String {
      String(describing: store.defaults.object(forKey: key))
    }
    return _pollForChanges("AppStorageKey \(key)", signature: fingerprint) { now in
      if now != written.value { didSet(read(store.defaults, key)) }
    }
  }
}

extension AppStorageKey: CustomStringConvertible {
  public var description: String { ".appStorage(\(String(reflecting: self.key)))" }
}

/// A value user defaults hold as it is.
public protocol _AppStorable: Sendable {
  static func _read(_ defaults: UserDefaults, _ key: String) -> Self?
  func _write(_ defaults: UserDefaults, _ key: String)
}

extension _AppStorable {
  public static func _read(_ defaults: UserDefaults, _ key: String) -> Self? {
    defaults.object(forKey: key) as? Self
  }
  public func _write(_ defaults: UserDefaults, _ key: String) {
    defaults.set(self, forKey: key)
  }
}

extension Bool: _AppStorable {}
extension Int: _AppStorable {}
extension Double: _AppStorable {}
extension String: _AppStorable {}
extension Data: _AppStorable {}
extension Date: _AppStorable {}
extension URL: _AppStorable {
  public static func _read(_ defaults: UserDefaults, _ key: String) -> URL? {
    defaults.url(forKey: key)
  }
  public func _write(_ defaults: UserDefaults, _ key: String) {
    defaults.set(self, forKey: key)
  }
}

extension SharedReaderKey {
  /// The value at `key` in `@Dependency(\.defaultAppStorage)`.
  public static func appStorage<Value: _AppStorable>(_ key: String) -> Self
  where Self == AppStorageKey<Value> {
    AppStorageKey(
      key: key, store: .current,
      read: { Value._read($0, $1) },
      write: { defaults, key, value in value._write(defaults, key) }
    )
  }

  /// An optional value at `key`: `nil` removes it.
  public static func appStorage<Value: _AppStorable>(_ key: String) -> Self
  where Self == AppStorageKey<Value?> {
    AppStorageKey(
      key: key, store: .current,
      read: { defaults, key in Value._read(defaults, key).map { .some($0) } },
      write: { defaults, key, value in
        if let value { value._write(defaults, key) } else { defaults.removeObject(forKey: key) }
      }
    )
  }

  /// An enum kept as its raw value at `key`.
  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<Value>, Value.RawValue: _AppStorable {
    AppStorageKey(
      key: key, store: .current,
      read: { defaults, key in Value.RawValue._read(defaults, key).flatMap(Value.init(rawValue:)) },
      write: { defaults, key, value in value.rawValue._write(defaults, key) }
    )
  }
}

/// User defaults, which Foundation makes thread-safe but does not mark `Sendable`.
final class _UserDefaultsBox: @unchecked Sendable {
  let defaults: UserDefaults

  init(_ defaults: UserDefaults) {
    self.defaults = defaults
  }

  static var current: _UserDefaultsBox {
    @Dependency(\.defaultAppStorage) var defaults
    return _UserDefaultsBox(defaults)
  }
}

private enum AppStorageDependencyKey: DependencyKey {
  static var liveValue: UncheckedSendable<UserDefaults> { UncheckedSendable(.standard) }
  static var testValue: UncheckedSendable<UserDefaults> {
    UncheckedSendable(
      UserDefaults(suiteName: "ComposableArchitecture.tests.\(UUID())") ?? UserDefaults())
  }
}

extension DependencyValues {
  /// The user defaults `.appStorage` keys read and write: `UserDefaults.standard` in the app, a
  /// suite of its own in each test's dependencies.
  public var defaultAppStorage: UserDefaults {
    get { self[AppStorageDependencyKey.self].value }
    set { self[AppStorageDependencyKey.self] = UncheckedSendable(newValue) }
  }
}
