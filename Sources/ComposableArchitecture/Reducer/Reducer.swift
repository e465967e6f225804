/// A type that describes how to evolve the current state of an application to the next state, given
/// an action, and what ``Effect``s should be executed later by the store, if any.
///
/// Conform either by implementing ``reduce(into:action:)`` or by composing other reducers in
/// ``body-swift.property``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   @CasePathable
///   enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .incrementButtonTapped:
///         state.count += 1
///         return .none
///       }
///     }
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The state this reducer evolves.
  associatedtype State

  /// The actions this reducer handles.
  associatedtype Action

  /// The type of the reducer's ``body-swift.property``; `Never` for reducers that implement
  /// ``reduce(into:action:)`` directly.
  associatedtype Body

  /// Evolves the current state of the reducer to the next state.
  ///
  /// - Parameters:
  ///   - state: The current state of the reducer.
  ///   - action: An action that can cause the state to change, and return an effect.
  /// - Returns: An effect that the store runs after the state has changed, and that can feed
  ///   actions back into the store.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The content and behaviour of the reducer, composed from other reducers.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` directly has no body.
  ///
  /// > Important: Do not call this property: it exists only so that such reducers conform.
  public var body: Body {
    fatalError(
      """
      '\(Self.self)' has no body: it implements 'reduce(into:action:)' directly, and its 'body' \
      must not be read.
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs the reducer's ``body-swift.property``.
  @inlinable
  public func reduce(into state: inout Body.State, action: Body.Action) -> Effect<Body.Action> {
    self.body.reduce(into: &state, action: action)
  }
}

/// A convenience for constraining a ``Reducer`` conformance: `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
