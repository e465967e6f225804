import CasePaths

/// A reducer that writes the bindings it receives: put it in a feature's `body` before the
/// reducers that react to them.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in … }
/// }
/// ```
///
/// A feature whose bindings come from its view's actions (``ViewAction``) names that case:
///
/// ```swift
/// enum Action: ViewAction {
///   case view(View)
///   enum View: BindableAction {
///     case binding(BindingAction<State>)
///     case onAppear
///   }
/// }
///
/// var body: some ReducerOf<Self> {
///   BindingReducer(action: \.view)
///   Reduce { state, action in … }
/// }
/// ```
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  @usableFromInline let toViewAction: (Action) -> ViewAction?

  /// A reducer that writes the bindings of an action that has a `binding` case.
  @inlinable
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// A reducer that writes the bindings of the actions in the case `toViewAction`, as
  /// `BindingReducer(action: \.view)`.
  @inlinable
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) where Action: CasePathable {
    let casePath = AnyCasePath(toViewAction)
    self.toViewAction = { casePath.extract(from: $0) }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.toViewAction(action)?.binding?.set(&state)
    return .none
  }
}
