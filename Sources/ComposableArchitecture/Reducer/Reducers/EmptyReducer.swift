/// A reducer that does nothing: it changes no state and returns no effects.
///
/// Useful as a placeholder in APIs that take a reducer, such as a ``Scope`` whose child handles
/// everything in its ``Reducer/body-swift.property`` modifiers.
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates a reducer that does nothing.
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
    .none
  }
}
