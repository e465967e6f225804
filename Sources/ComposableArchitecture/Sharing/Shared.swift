import CustomDump
import Dependencies
import Foundation

/// A value that several features share: each holds it, and a change any of them makes is seen
/// by all.
///
/// ```swift
/// @ObservableState
/// struct State {
///   @Shared(.inMemory("count")) var count = 0
///   @Shared(.fileStorage(.settingsURL)) var settings = Settings()
///   @Shared(.appStorage("isOn")) var isOn = false
/// }
///
/// case .incrementButtonTapped:
///   state.$count.withLock { $0 += 1 }
///   return .none
/// ```
///
/// A child gets the parent's shared value, or a part of it, through the projected value:
/// `Child.State(count: state.$count)`, `state.$settings.theme`. A value shared without a key
/// (`Shared(value: 0)`) lives as long as a feature holds it.
///
/// In a test store's assertion, a shared value reads and writes what the test expects:
/// `$0.$count.withLock { $0 = 1 }`. A change the reducer or its effects made and the test did
/// not assert fails the test with its diff, as any other change of state does.
///
/// In a recording, a shared value is recorded as its value, like any other field.
/// ``SharedChanges`` tells each change with the action whose reducer made it, if any: what a
/// recorder needs to keep the changes made outside its store's reducers.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value>: @unchecked Sendable {
  // NB: Unchecked: the access only reaches the box, which locks.
  let access: any _SharedAccess<Value>

  init(access: any _SharedAccess<Value>) {
    self.access = access
  }

  /// A value shared without a key: features that are given it (`state.$count`) share it.
  public init(value: Value) {
    let box = _SharedBox(value: value)
    self.init(access: _RootAccess(box: box, keyPath: \Value.self))
    SharedChanges.tell(
      id: ObjectIdentifier(box), key: nil, name: nil, value: value, kind: .obtained)
  }

  /// The same shared value: how a child feature's state is made from its parent's,
  /// `Child.State(count: state.$count)` for `@Shared var count: Int`.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The shared value of `base` while it is not `nil`; `nil` when it is.
  ///
  /// ```swift
  /// if let user = Shared(state.$currentUser) { … }
  /// ```
  public init?(_ base: Shared<Value?>) {
    guard let initial = base.wrappedValue else { return nil }
    self.init(access: _UnwrappedAccess(base: base.access, initial: initial))
  }

  /// The value.
  ///
  /// Setting it is `withLock { $0 = newValue }`; change it with ``withLock(_:)`` to read and
  /// write it in one step.
  public var wrappedValue: Value {
    get {
      _SharedAssertion.isAsserting ? self.access.expected() : self.access.current()
    }
    nonmutating set {
      self.withLock { $0 = newValue }
    }
  }

  /// The shared value itself, to hand to a child or to derive a part of it.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Changes the value in one step, seen by every holder at once.
  ///
  /// ```swift
  /// state.$count.withLock { $0 += 1 }
  /// ```
  @discardableResult
  public func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    if let asserting = _SharedAssertion.tracker {
      asserting.track(self.access.box)
      return try self.access.modify(asserting: true, operation)
    }
    @Dependency(\._sharedChangeTracker) var tracker
    if let tracker {
      self.access.box.takeSnapshotIfNeeded()
      tracker.track(self.access.box)
    }
    return try self.access.modify(asserting: false, operation)
  }

  /// A part of the shared value, shared with it: `state.$settings.theme`.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member>
  {
    Shared<Member>(access: self.access.appending(keyPath))
  }

  /// Calls `listener` with each new value, from any holder or from outside, until the returned
  /// subscription is cancelled or released.
  public func subscribe(_ listener: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    self.access.listen(listener)
  }
}

/// How a ``Shared`` reaches its part of a box: the box itself, a member of another shared
/// value, or the value of a shared optional.
protocol _SharedAccess<Value>: Sendable {
  associatedtype Value
  /// The box and the path in it: two shared values are the same when these are.
  var identity: [AnyHashable] { get }
  var box: any _AnySharedBox & _SnapshotTaking { get }
  func current() -> Value
  func expected() -> Value
  /// The value as a state captured at `moment` holds it (see ``_SharedMoment``).
  func value(asOf moment: _SharedMoment?) -> Value
  /// Whether it reaches the whole value of its box, not a part of it.
  var isWhole: Bool { get }
  /// What a diff knows it by: its box for the whole value, else the part it reaches, apart
  /// from the box's other parts.
  var diffIdentity: ObjectIdentifier { get }
  /// The stored properties from the box's value to this one (`[]` for the whole), or `nil`
  /// when the way is not a chain of stored properties.
  var memberNames: [String]? { get }
  /// The same access to other boxes: those of `boxes` that replace the ones it reaches.
  func rebased(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> any _SharedAccess<Value>
  /// Changes the value, or what the test expects of it when `asserting`.
  func modify<R>(asserting: Bool, _ body: (inout Value) throws -> R) rethrows -> R
  func listen(_ listener: @escaping @Sendable (Value) -> Void) -> SharedSubscription
}

extension _SharedAccess {
  func appending<Member>(_ member: WritableKeyPath<Value, Member>) -> any _SharedAccess<Member> {
    _MemberAccess(base: self, member: member)
  }
}

/// The whole value of a box, or a path in it.
struct _RootAccess<Root, Value>: _SharedAccess, @unchecked Sendable {
  // NB: Unchecked: the key path is immutable, and the box locks.
  let root: _SharedBox<Root>
  let keyPath: WritableKeyPath<Root, Value>
  var identity: [AnyHashable] { [AnyHashable(ObjectIdentifier(self.root)), AnyHashable(keyPath)] }
  var box: any _AnySharedBox & _SnapshotTaking { self.root }

  /// What a diff knows a part by (`nil` for the whole value, known by its box).
  let part: _SharedPartToken?

  init(box: _SharedBox<Root>, keyPath: WritableKeyPath<Root, Value>) {
    self.root = box
    self.keyPath = keyPath
    self.part = Root.self == Value.self ? nil : _SharedPartToken()
  }

  var isWhole: Bool { Root.self == Value.self }
  var diffIdentity: ObjectIdentifier { ObjectIdentifier(self.part ?? self.root) }
  var memberNames: [String]? { _storedPropertyNames(self.keyPath) }
  func current() -> Value { self.root.current[keyPath: self.keyPath] }
  func expected() -> Value { self.root.expected[keyPath: self.keyPath] }
  func value(asOf moment: _SharedMoment?) -> Value {
    self.root.value(asOf: moment)[keyPath: self.keyPath]
  }
  func rebased(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> any _SharedAccess<Value> {
    let box = boxes[ObjectIdentifier(self.root)] as? _SharedBox<Root> ?? self.root
    return _RootAccess(box: box, keyPath: self.keyPath)
  }
  func modify<R>(asserting: Bool, _ body: (inout Value) throws -> R) rethrows -> R {
    asserting
      ? try self.root.modifyExpected { try body(&$0[keyPath: self.keyPath]) }
      : try self.root.modify { try body(&$0[keyPath: self.keyPath]) }
  }
  func listen(_ listener: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    nonisolated(unsafe) let keyPath = self.keyPath
    return self.root.listen { listener($0[keyPath: keyPath]) }
  }
}

/// A member of another shared value: `state.$settings.theme`.
struct _MemberAccess<BaseValue, Value>: _SharedAccess, @unchecked Sendable {
  // NB: Unchecked: the key path is immutable, and the box locks.
  let base: any _SharedAccess<BaseValue>
  let member: WritableKeyPath<BaseValue, Value>
  var identity: [AnyHashable] { self.base.identity + [AnyHashable(self.member)] }
  var box: any _AnySharedBox & _SnapshotTaking { self.base.box }

  /// What a diff knows the part by.
  let part = _SharedPartToken()

  init(base: any _SharedAccess<BaseValue>, member: WritableKeyPath<BaseValue, Value>) {
    self.base = base
    self.member = member
  }

  var isWhole: Bool { false }
  var diffIdentity: ObjectIdentifier { ObjectIdentifier(self.part) }
  var memberNames: [String]? {
    guard let base = self.base.memberNames, let member = _storedPropertyNames(self.member)
    else { return nil }
    return base + member
  }
  func current() -> Value { self.base.current()[keyPath: self.member] }
  func expected() -> Value { self.base.expected()[keyPath: self.member] }
  func value(asOf moment: _SharedMoment?) -> Value {
    self.base.value(asOf: moment)[keyPath: self.member]
  }
  func rebased(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> any _SharedAccess<Value> {
    _MemberAccess(base: self.base.rebased(boxes), member: self.member)
  }
  func modify<R>(asserting: Bool, _ body: (inout Value) throws -> R) rethrows -> R {
    try self.base.modify(asserting: asserting) { try body(&$0[keyPath: self.member]) }
  }
  func listen(_ listener: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    nonisolated(unsafe) let member = self.member
    return self.base.listen { listener($0[keyPath: member]) }
  }
}

/// The value of a shared optional, its last value once it is `nil`: `Shared(state.$user)`.
struct _UnwrappedAccess<Value>: _SharedAccess, @unchecked Sendable {
  // NB: Unchecked: the last value is behind a lock, and the box locks.
  let base: any _SharedAccess<Value?>
  let last: _Locked<Value>
  var identity: [AnyHashable] { self.base.identity + ["!"] }
  var box: any _AnySharedBox & _SnapshotTaking { self.base.box }

  init(base: any _SharedAccess<Value?>, initial: Value) {
    self.base = base
    self.last = _Locked(initial)
  }

  func current() -> Value {
    if let value = self.base.current() {
      self.last.withValue { $0 = value }
      return value
    }
    return self.last.withValue { $0 }
  }
  var isWhole: Bool { false }
  var diffIdentity: ObjectIdentifier { ObjectIdentifier(self.last) }
  // NB: An optional's JSON is its value's: the part sits where the optional does.
  var memberNames: [String]? { self.base.memberNames }
  func expected() -> Value {
    self.base.expected() ?? self.last.withValue { $0 }
  }
  func value(asOf moment: _SharedMoment?) -> Value {
    self.base.value(asOf: moment) ?? self.last.withValue { $0 }
  }
  func rebased(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> any _SharedAccess<Value> {
    _UnwrappedAccess(base: self.base.rebased(boxes), initial: self.last.withValue { $0 })
  }
  func modify<R>(asserting: Bool, _ body: (inout Value) throws -> R) rethrows -> R {
    try self.base.modify(asserting: asserting) { optional in
      var value = optional ?? self.last.withValue { $0 }
      let result = try body(&value)
      if optional != nil { optional = value }
      self.last.withValue { $0 = value }
      return result
    }
  }
  func listen(_ listener: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    self.base.listen { if let value = $0 { listener(value) } }
  }
}

/// A box whose value can be set aside as the expectation of the next assertion.
protocol _SnapshotTaking {
  func takeSnapshotIfNeeded()
}

extension _SharedBox: _SnapshotTaking {}

/// Whether two shared values are equal. In a test store's assertion, the same shared value on
/// both sides compares what the test expects (left) with the value (right).
func _sharedValuesAreEqual<Value: Equatable>(
  _ lhs: any _SharedAccess<Value>, _ rhs: any _SharedAccess<Value>
) -> Bool {
  guard _SharedAssertion.isAsserting else {
    // NB: Printing a change, the same shared value on both sides is the value before the
    // action (left) and after (right).
    if let moment = _SharedDiffing.moment, lhs.identity == rhs.identity {
      return lhs.value(asOf: moment) == rhs.current()
    }
    return lhs.current() == rhs.current()
  }
  return lhs.identity == rhs.identity
    ? lhs.expected() == rhs.current() : lhs.expected() == rhs.expected()
}

extension Shared: Equatable where Value: Equatable {
  /// Whether the values are equal. In a test store's assertion, the same shared value on both
  /// sides compares what the test expects (left) with the value (right).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    _sharedValuesAreEqual(lhs.access, rhs.access)
  }
}

extension Shared: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.wrappedValue)
  }
}

extension Shared: Identifiable where Value: Identifiable {
  /// The value's identity.
  public var id: Value.ID { self.wrappedValue.id }
}

extension Shared: Encodable where Value: Encodable {
  /// The value, as it encodes.
  public func encode(to encoder: any Encoder) throws {
    try _encodeShared(self.access, to: encoder)
  }
}

extension Shared: Decodable where Value: Decodable {
  /// A value shared without a key (``init(value:)``), as a recording holds it; in a replay,
  /// the value the recording says this place shares with others.
  public init(from decoder: any Decoder) throws {
    self.init(access: try _decodeShared(from: decoder))
  }
}

extension Shared: _CustomDiffObject {
  /// The value before and after, as a diff shows a shared value that both sides hold: while a
  /// change is printed (``Reducer/_printChanges(_:)``), the value before the action and now;
  /// otherwise the value, twice.
  public var _customDiffValues: (Any, Any) {
    let current = self.wrappedValue
    guard let moment = _SharedDiffing.moment else { return (current, current) }
    return (self.access.value(asOf: moment), current)
  }

  /// The shared value's identity: its storage's for the whole value, the part's for a part
  /// (`$settings.theme`), so that a diff shows each with its own value.
  public var _objectIdentifier: ObjectIdentifier {
    self.access.diffIdentity
  }
}

/// An object standing for one part of a shared value, as a diff tells shared values apart.
final class _SharedPartToken: Sendable {}

/// What a diff of states printed after an action compares shared values against.
enum _SharedDiffing {
  /// The moment the action began: shared values it changed are diffed from their values then.
  @TaskLocal static var moment: _SharedMoment?
}

extension Shared: CustomStringConvertible {
  public var description: String { String(describing: self.wrappedValue) }
}

extension Shared: _StepChanging {
  /// A shared value cannot say what changed from the value it replaced: two states hold the
  /// same value by reference. A writer works the change out from the encoded states instead.
  public func _appendStepChanges<Sink: StepChangeSink>(
    from old: Self, at path: [String], into sink: inout Sink
  ) {
    sink.cannotCompare(path)
  }

  public func _isIdentical(to other: Self) -> Bool { false }
}

extension SharedReader: _StepChanging {
  /// As ``Shared``'s: the change is worked out from the encoded states.
  public func _appendStepChanges<Sink: StepChangeSink>(
    from old: Self, at path: [String], into sink: inout Sink
  ) {
    sink.cannotCompare(path)
  }

  public func _isIdentical(to other: Self) -> Bool { false }
}
