import CustomDump
import Foundation

/// A shared value read but never written here: a feature that shows what others change.
///
/// ```swift
/// @SharedReader(.appStorage("isOn")) var isOn = false
/// @SharedReader var count: Int   // Feature.State(count: SharedReader(parent.$count))
/// ```
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value>: @unchecked Sendable {
  // NB: Unchecked: the access only reaches the box, which locks.
  let access: any _SharedAccess<Value>

  init(access: any _SharedAccess<Value>) {
    self.access = access
  }

  /// Reads `shared`.
  public init(_ shared: Shared<Value>) {
    self.init(access: shared.access)
  }

  /// A constant value.
  public init(value: Value) {
    self.init(Shared(value: value))
  }

  /// The same shared value.
  public init(projectedValue: SharedReader<Value>) {
    self = projectedValue
  }

  /// The value at the place `key` names, starting from `value` when it holds none.
  public init(wrappedValue value: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) {
    let box = _SharedBoxes.box(for: key, initialValue: value, saves: false)
    self.init(access: _RootAccess(box: box, keyPath: \Value.self))
  }

  /// The value at the place a key with a default names.
  public init<Key: SharedReaderKey<Value>>(_ key: _SharedKeyDefault<Key>) {
    let box = _SharedBoxes.box(for: key, initialValue: { nil }, saves: false)
    self.init(access: _RootAccess(box: box, keyPath: \Value.self))
  }

  /// The value.
  public var wrappedValue: Value {
    _SharedAssertion.isAsserting ? self.access.expected() : self.access.current()
  }

  /// The shared value itself, to hand to a child.
  public var projectedValue: SharedReader<Value> {
    get { self }
    set { self = newValue }
  }

  /// A part of the value, read as it changes.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>)
    -> SharedReader<Member>
  {
    SharedReader<Member>(access: self.access.appending(keyPath))
  }

  /// Calls `listener` with each new value until the returned subscription ends.
  public func subscribe(_ listener: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    self.access.listen(listener)
  }
}

extension SharedReader: Equatable where Value: Equatable {
  /// Whether the values are equal; in a test store's assertion, as ``Shared``'s.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    _sharedValuesAreEqual(lhs.access, rhs.access)
  }
}

extension SharedReader: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.wrappedValue)
  }
}

extension SharedReader: Encodable where Value: Encodable {
  /// The value, as it encodes.
  public func encode(to encoder: any Encoder) throws {
    try _encodeShared(self.access, to: encoder)
  }
}

extension SharedReader: Decodable where Value: Decodable {
  /// As ``Shared``'s: a value of its own, or in a replay the value this place shares.
  public init(from decoder: any Decoder) throws {
    self.init(access: try _decodeShared(from: decoder))
  }
}

extension SharedReader: CustomDumpRepresentable {
  public var customDumpValue: Any { self.wrappedValue }
}
