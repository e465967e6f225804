/// Combines many reducers into one, running each in order and merging their effects.
///
/// Most useful for applying a modifier to several reducers at once:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   CombineReducers {
///     Scope(state: \.profile, action: \.profile) { Profile() }
///     Reduce { state, action in … }
///   }
///   .ifLet(\.destination, action: \.destination) { Destination() }
/// }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline
  let reducers: Reducers

  /// Combines the reducers of the builder.
  ///
  /// - Parameter build: A reducer builder.
  @inlinable
  public init(
    @ReducerBuilder<State, Action> _ build: () -> Reducers
  ) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reducers.reduce(into: &state, action: action)
  }
}
