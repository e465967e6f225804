import Observation

/// A feature's state that observers track, property by property, as ``ObservableState()``
/// makes it.
///
/// Every ``Store`` is `Observable` too: `withObservationTracking { store.count } onChange: { … }`
/// is told when the next action has been reduced. A state value is observable on its own as
/// well: the macro turns each stored `var` into accessors that tell observers of that property
/// when it is written, and each value carries an identity (``_$id``) that a copy keeps and that
/// an in-place mutation through a parent renews, so that a parent's observers are told when a
/// child is replaced, not when it is changed in place.
public protocol ObservableState: Observable {
  /// The identity of this value: kept by copies, renewed by ``_$willModify()``.
  var _$id: ObservableStateID { get }
  /// Gives the value a new identity, as a parent does before it hands the value out for an
  /// in-place mutation.
  mutating func _$willModify()
}

extension ObservableState {
  /// An enum state's identity: the identity of its case's observable state, tagged with the
  /// case; a new identity each time for a case with no observable state.
  public var _$id: ObservableStateID {
    let mirror = Mirror(reflecting: self)
    guard mirror.displayStyle == .enum, let child = mirror.children.first else {
      return ObservableStateID()
    }
    return ObservableStateID._$id(for: child.value)._$tag(_caseTag(child.label))
  }

  /// An enum state keeps its identity: its case's state is handed out by value.
  public mutating func _$willModify() {}
}

/// A tag that tells the cases of one enum apart, stable within a process (FNV-1a of the name).
private func _caseTag(_ label: String?) -> Int {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in (label ?? "").utf8 {
    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
  }
  return Int(truncatingIfNeeded: hash)
}
