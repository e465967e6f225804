extension Reducer {
  /// Runs `perform` when a value of state changes, with the value before and the state after:
  /// TCA 1.25's `onChange`, which returns an effect rather than a reducer.
  ///
  /// ```swift
  /// BindingReducer()
  ///   .onChange(of: \.isHapticFeedbackEnabled) { oldValue, state in
  ///     .run { [isEnabled = state.isHapticFeedbackEnabled] _ in await settings.save(isEnabled) }
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: A closure that returns a value from the given state.
  ///   - perform: What to do when the value changes: it may change the state further, and
  ///     returns an effect.
  /// - Returns: A reducer that performs the logic when the state changes.
  public func onChange<V: Equatable>(
    of toValue: @escaping (State) -> V,
    _ perform: @escaping (_ oldValue: V, _ state: inout State) -> Effect<Action>
  ) -> _OnChangeReducer<Self, V, Reduce<State, Action>> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==) { oldValue, _ in
      Reduce(internal: { state, _ in perform(oldValue, &state) })
    }
  }

  /// Adds a reducer to run when a value of state changes.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .onChange(of: \.filter) { oldValue, newValue in
  ///       Reduce { state, action in
  ///         state.visibleCount = state.items.filter(newValue.isIncluded).count
  ///         return .none
  ///       }
  ///     }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: A closure that returns a value from the given state.
  ///   - reducer: A reducer builder closure to run when the value changes, given the old value and
  ///     the new one.
  /// - Returns: A reducer that performs the logic when the state changes.
  public func onChange<V: Equatable, Reducers: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> Reducers
  ) -> _OnChangeReducer<Self, V, Reducers> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// ``onChange(of:_:)`` for a value that is not `Equatable`, or whose changes of interest are
  /// fewer than its changes: the reducer runs unless `isDuplicate` says the old value and the new
  /// one are the same.
  ///
  /// ```swift
  /// .onChange(of: \.rows, removeDuplicates: { $0.ids == $1.ids }) { _, _ in … }
  /// ```
  public func onChange<V, Reducers: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    removeDuplicates isDuplicate: @escaping (V, V) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> Reducers
  ) -> _OnChangeReducer<Self, V, Reducers> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer behind ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value, Body: Reducer>: Reducer
where Base.State == Body.State, Base.Action == Body.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let isDuplicate: (Value, Value) -> Bool
  let reducer: (Value, Value) -> Body

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = self.toValue(state)
    let baseEffects = self.base.reduce(into: &state, action: action)
    let newValue = self.toValue(state)
    guard !self.isDuplicate(oldValue, newValue) else { return baseEffects }
    return .merge(
      baseEffects, self.reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
