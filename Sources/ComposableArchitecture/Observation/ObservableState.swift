/// A feature's state that observers track through its store, as ``ObservableState()`` marks it.
///
/// Every ``Store`` is `Observable` (the standard Observation module): `withObservationTracking
/// { store.count } onChange: { … }` is told when the next action has been reduced. The store is
/// tracked as a whole, so the state's stored properties stay as written.
public protocol ObservableState {}
