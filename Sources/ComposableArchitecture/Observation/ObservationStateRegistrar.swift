import Observation

/// What ``ObservableState()`` stores in a struct state: its identity (``ObservableStateID``) and
/// the registrar its observers are kept by, shared by the value's copies.
///
/// Not part of the value: every two registrars are equal, hash alike, and encode to nothing.
public struct ObservationStateRegistrar: Sendable {
  /// The state's identity.
  public private(set) var id = ObservableStateID()
  @usableFromInline let registrar = ObservationRegistrar()

  public init() {}

  /// Renews the state's identity.
  public mutating func _$willModify() { self.id._$willModify() }

  /// Tells observation tracking that a property was read.
  @inlinable
  public func access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>
  ) {
    self.registrar.access(subject, keyPath: keyPath)
  }

  /// Writes a property, telling its observers unless the new value is the same state
  /// (``_ModifyIdentity``) or `shouldNotifyObservers` says it is no change (equal values).
  @inlinable
  public func mutate<Subject: Observable, Member, Value>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ value: inout Value,
    _ newValue: Value,
    _ identity: (Value) -> _ModifyIdentity,
    _ shouldNotifyObservers: (Value, Value) -> Bool = { _, _ in true }
  ) {
    let old = identity(value)
    if old.isKnown && old == identity(newValue) || !shouldNotifyObservers(value, newValue) {
      value = newValue
    } else {
      self.registrar.withMutation(of: subject, keyPath: keyPath) { value = newValue }
    }
  }

  /// Before a property is mutated in place: its identity, to be compared after.
  @inlinable
  public func willModify<Subject: Observable, Member>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ member: inout Member,
    _ identity: (Member) -> _ModifyIdentity
  ) -> _ModifyIdentity {
    identity(member)
  }

  /// Before a child state is mutated in place: it gets a new identity first, which the
  /// mutation keeps unless it replaces the child.
  @inlinable
  public func willModify<Subject: Observable, Member: ObservableState>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ member: inout Member,
    _ identity: (Member) -> _ModifyIdentity
  ) -> _ModifyIdentity {
    member._$willModify()
    return identity(member)
  }

  /// After a property was mutated in place: its observers are told unless it is still the same
  /// state (a child changed in place, a collection whose elements are still the same ones).
  @inlinable
  public func didModify<Subject: Observable, Member>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ member: inout Member,
    _ before: _ModifyIdentity,
    _ identity: (Member) -> _ModifyIdentity
  ) {
    guard !before.isKnown || identity(member) != before else { return }
    self.registrar.willSet(subject, keyPath: keyPath)
    self.registrar.didSet(subject, keyPath: keyPath)
  }
}

extension ObservationStateRegistrar: Equatable, Hashable, Codable {
  public static func == (_: Self, _: Self) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
  public init(from decoder: any Decoder) throws { self.init() }
  public func encode(to encoder: any Encoder) throws {}
}
