/// A reducer made by ``Reducer()`` on an enum of features: its `State` and `Action` are enums
/// with a case per feature, and its static `body` runs the feature of the current case.
///
/// The reducer of a ``PresentationState`` or a ``StackState`` whose state is a
/// ``CaseReducerState`` needs no trailing closure: `ifLet(\.$destination, action:
/// \.destination)` runs `Destination.body`.
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, State.StateReducer == Self, Body: Reducer<State, Action> {
  // NB: Restated so that `Body` is inferred from the static `body` below, not from the
  // `Body == Never` default of reducers that implement `reduce(into:action:)`.
  associatedtype State = State
  associatedtype Action = Action
  associatedtype Body = Body

  /// The reducer of every case: a `Scope` per feature.
  @ReducerBuilder<State, Action>
  static var body: Body { get }
}

extension CaseReducer {
  /// The reducer of every case, ``body-swift.type.property``.
  public var body: Body {
    Self.body
  }
}

/// The state of a ``CaseReducer``: it names the reducer that runs it.
public protocol CaseReducerState {
  /// The enum of features this is the state of.
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}
