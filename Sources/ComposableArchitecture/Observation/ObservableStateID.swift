import Synchronization

/// The identity of an ``ObservableState`` value: copies share it, and a parent renews it before
/// it hands the value out for an in-place mutation, so that replacing a child (`state.child =
/// other`, `state.child.reset()`) can be told from changing it (`state.child.count += 1`).
public struct ObservableStateID: Hashable, Sendable {
  private var location: UInt64
  private var tag: UInt64 = 0

  /// A new identity, equal to no other.
  public init() {
    self.location = Self.nextLocation()
  }

  /// The identity of `value` when it is an observable state, or a new one.
  public static func _$id<T>(for value: T) -> Self {
    (value as? any ObservableState)?._$id ?? Self()
  }

  /// The identity of an observable state.
  public static func _$id(for value: some ObservableState) -> Self {
    value._$id
  }

  /// This identity, told apart by `tag`: an enum's case around the state it holds.
  public func _$tag(_ tag: Int) -> Self {
    var tagged = self
    tagged.tag = (self.tag &* 0x100_0000_01b3) ^ UInt64(bitPattern: Int64(tag)) &+ 1
    return tagged
  }

  /// Renews the identity.
  public mutating func _$willModify() {
    self.location = Self.nextLocation()
  }

  private static let counter = Atomic<UInt64>(0)

  private static func nextLocation() -> UInt64 {
    counter.add(1, ordering: .relaxed).newValue
  }
}
