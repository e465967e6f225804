import IdentifiedCollections

/// What makes a property's value the same state before and after a write: a child state's
/// identity, the identities of a collection's states, or nothing known (a plain value, whose
/// every in-place mutation is a change).
public enum _ModifyIdentity: Equatable {
  case unknown
  case state(ObservableStateID)
  case states([ObservableStateID])
  case ids(AnyHashable)

  /// Whether anything is known: `false` for ``unknown``.
  @inlinable public var isKnown: Bool {
    if case .unknown = self { return false }
    return true
  }
}

/// A value's identity as ``_ModifyIdentity`` sees it: any value, read at run time.
public func _$modifyIdentity<T>(_ value: T) -> _ModifyIdentity {
  guard !_isPOD(T.self) else { return .unknown }
  if let state = value as? any ObservableState { return .state(state._$id) }
  guard let collection = value as? any Collection else { return .unknown }
  func identities<C: Collection>(_ collection: C) -> _ModifyIdentity {
    guard C.Element.self is any ObservableState.Type else { return .unknown }
    return .states(collection.map { ($0 as! any ObservableState)._$id })
  }
  return identities(collection)
}

/// A child state's identity.
public func _$modifyIdentity<T: ObservableState>(_ value: T) -> _ModifyIdentity {
  .state(value._$id)
}

/// An optional child state's identity.
public func _$modifyIdentity<T: ObservableState>(_ value: T?) -> _ModifyIdentity {
  value.map { .state($0._$id) } ?? .unknown
}

/// An identified array of states: its ids, in order (a change to an element in place keeps
/// them).
public func _$modifyIdentity<ID: Hashable, T: ObservableState>(
  _ value: IdentifiedArray<ID, T>
) -> _ModifyIdentity {
  .ids(AnyHashable(value.ids))
}

/// A stack of states: its ids, in order.
public func _$modifyIdentity<T: ObservableState>(_ value: StackState<T>) -> _ModifyIdentity {
  .ids(AnyHashable(value.ids))
}

/// A collection of states: their identities, in order.
public func _$modifyIdentity<C: Collection>(_ value: C) -> _ModifyIdentity
where C.Element: ObservableState {
  .states(value.map(\._$id))
}

/// A string is a value, not a collection of states.
public func _$modifyIdentity(_ value: String) -> _ModifyIdentity { .unknown }

/// Whether two values are the same state (TCA's name): same identity, as ``_ModifyIdentity``
/// tells.
public func _$isIdentityEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
  let identity = _$modifyIdentity(lhs)
  return identity.isKnown && identity == _$modifyIdentity(rhs)
}

/// Gives a state a new identity; does nothing to another value.
public func _$willModify<T>(_: inout T) {}

/// Gives a state a new identity.
public func _$willModify<T: ObservableState>(_ value: inout T) {
  value._$willModify()
}

/// Whether writing `rhs` over `lhs` is a change observers are told of: any write, for a type
/// that cannot tell.
public func _$shouldNotifyObservers<T>(_ lhs: T, _ rhs: T) -> Bool { true }

/// A change when the values differ.
public func _$shouldNotifyObservers<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs != rhs }

/// A change when the objects differ.
public func _$shouldNotifyObservers<T: AnyObject>(_ lhs: T, _ rhs: T) -> Bool { lhs !== rhs }

/// A change when the objects are not equal.
public func _$shouldNotifyObservers<T: Equatable & AnyObject>(_ lhs: T, _ rhs: T) -> Bool {
  lhs != rhs
}
