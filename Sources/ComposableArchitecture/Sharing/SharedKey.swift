import ConcurrencyExtras
import Foundation

/// Where a ``SharedReader`` reads a value from, and learns of its changes: a file, user defaults,
/// a server.
///
/// ```swift
/// struct RemoteFlagKey: SharedReaderKey, Hashable {
///   let name: String
///   func load(initialValue: Bool?) -> Bool? { Flags.current[self.name] }
///   func subscribe(
///     initialValue: Bool?, didSet: @escaping @Sendable (Bool?) -> Void
///   ) -> SharedSubscription {
///     let token = Flags.observe(self.name) { didSet($0) }
///     return SharedSubscription { token.cancel() }
///   }
/// }
/// ```
///
/// Every shared value made from keys with the same ``id`` is one value.
public protocol SharedReaderKey<Value>: Sendable {
  /// The value the key holds.
  associatedtype Value
  /// What makes two keys the same place.
  associatedtype ID: Hashable = Self

  /// What makes two keys the same place: the key itself, when it is `Hashable`.
  var id: ID { get }

  /// The value the place holds, or `nil` when it holds none (the shared value then starts from
  /// `initialValue`).
  func load(initialValue: Value?) -> Value?

  /// Calls `didSet` with each value the place takes from outside (another program, another
  /// device), until the returned subscription ends.
  func subscribe(
    initialValue: Value?, didSet: @escaping @Sendable (_ newValue: Value?) -> Void
  ) -> SharedSubscription
}

/// A ``SharedReaderKey`` that a ``Shared`` also writes to: each change is saved.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves `value`.
  func save(_ value: Value)
}

extension SharedReaderKey where ID == Self, Self: Hashable {
  public var id: Self { self }
}

extension SharedReaderKey {
  /// A key that learns of no change from outside.
  public func subscribe(
    initialValue: Value?, didSet: @escaping @Sendable (_ newValue: Value?) -> Void
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  /// A key with a default value, for declaring an app's own keys:
  ///
  /// ```swift
  /// extension SharedKey where Self == FileStorageKey<[Todo]>.Default {
  ///   static var todos: Self {
  ///     Self[.fileStorage(.documentsDirectory.appending(component: "todos.json")), default: []]
  ///   }
  /// }
  ///
  /// @Shared(.todos) var todos
  /// ```
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key and the value a shared value starts from when its place holds none: see
/// ``SharedReaderKey/Default``.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey, @unchecked Sendable {
  // NB: Unchecked: the default value is made by a closure that the key only calls.
  let base: Base
  let defaultValue: () -> Base.Value

  /// `base`, starting from `value` when its place holds none.
  public static subscript(
    _ base: Base, default value: @autoclosure @escaping () -> Base.Value
  ) -> Self {
    Self(base: base, defaultValue: value)
  }

  public var id: Base.ID { self.base.id }

  public var description: String { _describeKey(self.base) }

  public func load(initialValue: Base.Value?) -> Base.Value? {
    let initialValue = initialValue ?? self.defaultValue()
    return self.base.load(initialValue: initialValue) ?? initialValue
  }

  public func subscribe(
    initialValue: Base.Value?, didSet: @escaping @Sendable (_ newValue: Base.Value?) -> Void
  ) -> SharedSubscription {
    self.base.subscribe(initialValue: initialValue ?? self.defaultValue(), didSet: didSet)
  }
}

extension _SharedKeyDefault: CustomStringConvertible, _SharedKeyNaming {
  var _recordedName: String { _recordedKeyName(self.base) }
  func _defaultValue() -> Any { self.defaultValue() }
}

/// What a key is called in recordings, where it is not its description: a file storage key is
/// named by its file's name, which stays the same on another machine.
protocol _SharedKeyNaming {
  var _recordedName: String { get }
  /// The value a key with a default starts from, without reading its storage.
  func _defaultValue() -> Any
}

extension _SharedKeyNaming {
  func _defaultValue() -> Any { () }
}

func _describeKey(_ key: some SharedReaderKey) -> String {
  String(describing: key)
}

func _recordedKeyName(_ key: some SharedReaderKey) -> String {
  (key as? any _SharedKeyNaming)?._recordedName ?? _describeKey(key)
}

/// A key whose changes from outside can be overtaken by a change of the app's: a holder takes
/// each only while `isCurrent()` holds, checked under the holder's lock, so that a value the
/// app's later change overwrote never reaches it after that change.
protocol _OrderedSharedKey<Value>: SharedReaderKey {
  func _subscribe(
    initialValue: Value?,
    didSet:
      @escaping @Sendable (_ newValue: Value?, _ isCurrent: @escaping @Sendable () -> Bool)
      -> Void
  ) -> SharedSubscription
}

extension _SharedKeyDefault: _OrderedSharedKey where Base: _OrderedSharedKey {
  func _subscribe(
    initialValue: Base.Value?,
    didSet:
      @escaping @Sendable (
        _ newValue: Base.Value?, _ isCurrent: @escaping @Sendable () -> Bool
      ) -> Void
  ) -> SharedSubscription {
    self.base._subscribe(initialValue: initialValue ?? self.defaultValue(), didSet: didSet)
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Base.Value) {
    self.base.save(value)
  }
}

/// The boxes of the shared values made from keys, one per place, for as long as a shared value
/// holds it.
enum _SharedBoxes {
  private final class Weak: @unchecked Sendable {
    // NB: Unchecked: only read and written under the registry's lock.
    weak var box: AnyObject?
    init(_ box: AnyObject) { self.box = box }
  }

  private static let boxes = _Locked<[AnyHashable: Weak]>([:])

  /// The box of the place `key` names, made from what it holds (or `initialValue`) when no
  /// shared value holds it now.
  static func box<Key: SharedReaderKey>(
    for key: Key, initialValue: () -> Key.Value?, saves: Bool
  ) -> _SharedBox<Key.Value> {
    let name = _recordedKeyName(key)
    if let scope = _SharedReplayScope.current {
      // NB: A replay's own storage: the key's place is neither read nor written.
      return scope.box(named: name) {
        initialValue() ?? ((key as? any _SharedKeyNaming)?._defaultValue() as? Key.Value)
      }
    }
    // NB: By the value's type and the place, so that a key with a default and its base key
    // reach the same value.
    let id: [AnyHashable] = [AnyHashable(ObjectIdentifier(Key.Value.self)), AnyHashable(key.id)]
    let box = boxes.withValue { boxes in
      if let box = boxes[id]?.box as? _SharedBox<Key.Value> { return box }
      let initial = initialValue()
      guard let value = key.load(initialValue: initial) ?? initial else {
        preconditionFailure(
          """
          The shared key \(key) holds no value and none was given: give the property an \
          initial value (@Shared(\(key)) var value = …) or use a key with a default.
          """)
      }
      var save: (@Sendable (Key.Value) -> Void)?
      if saves, let key = key as? any SharedKey<Key.Value> {
        save = { key.save($0) }
      }
      let box = _SharedBox(
        value: value, keyDescription: _describeKey(key), recordedName: name, save: save)
      let fallback = _Locked(value)
      if let key = key as? any _OrderedSharedKey<Key.Value> {
        box.keep(
          key._subscribe(initialValue: value) { [weak box] newValue, isCurrent in
            box?.receive(newValue ?? fallback.withValue { $0 }, if: isCurrent)
          })
      } else {
        box.keep(
          key.subscribe(initialValue: value) { [weak box] newValue in
            box?.receive(newValue ?? fallback.withValue { $0 })
          })
      }
      boxes = boxes.filter { $0.value.box != nil }
      boxes[id] = Weak(box)
      return box
    }
    SharedChanges.tell(
      id: ObjectIdentifier(box), key: box.keyDescription, name: name, value: box.current,
      kind: .obtained)
    return box
  }
}

extension Shared {
  /// The value at the place `key` names, starting from `value` when it holds none.
  ///
  /// ```swift
  /// @Shared(.fileStorage(.settingsURL)) var settings = Settings()
  /// ```
  public init(wrappedValue value: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    let box = _SharedBoxes.box(for: key, initialValue: value, saves: true)
    self.init(access: _RootAccess(box: box, keyPath: \Value.self))
  }

  /// The value at the place a key with a default names: `@Shared(.todos) var todos`.
  public init<Key: SharedKey<Value>>(_ key: _SharedKeyDefault<Key>) {
    let box = _SharedBoxes.box(for: key, initialValue: { nil }, saves: true)
    self.init(access: _RootAccess(box: box, keyPath: \Value.self))
  }

  /// The value at the place a key with a default names, starting from `value` rather than the
  /// key's default.
  public init<Key: SharedKey<Value>>(
    wrappedValue value: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) {
    let box = _SharedBoxes.box(for: key.base, initialValue: value, saves: true)
    self.init(access: _RootAccess(box: box, keyPath: \Value.self))
  }
}
