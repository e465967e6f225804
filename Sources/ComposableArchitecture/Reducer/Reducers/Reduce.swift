/// A type-erased reducer that invokes the given `reduce` function.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Reduce { state, action in
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>

  /// Initializes a reducer with a `reduce` function.
  ///
  /// - Parameter reduce: A function that evolves the state and returns an effect.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// ``init(_:)`` by another name, as TCA's own tests build a reducer from a closure.
  init(internal reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.init(reduce)
  }

  /// Type-erases a reducer.
  ///
  /// - Parameter reducer: A reducer that is called when ``reduce(into:action:)`` is invoked.
  @inlinable
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reduce(&state, action)
  }
}
