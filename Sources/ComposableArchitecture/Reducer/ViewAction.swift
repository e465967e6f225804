/// An action whose view's actions are gathered in one case, `view`: what a feature's view may
/// send, apart from what its effects and children send.
///
/// ```swift
/// enum Action: ViewAction {
///   case delegate(Delegate)
///   case response(Result<Fact, any Error>)
///   case view(View)
///
///   enum View {
///     case onAppear
///     case refreshButtonTapped
///   }
/// }
/// ```
///
/// A test sends them as any action: `await store.send(.view(.onAppear))`.
public protocol ViewAction<ViewAction> {
  /// The actions of the view.
  associatedtype ViewAction
  /// The action that holds a view's action.
  static func view(_ action: ViewAction) -> Self
}
