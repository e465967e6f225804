import CasePaths
import CustomDump
import IssueReporting

/// Embeds a child reducer in a parent domain.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.profile, action: \.profile) {
///     Profile()
///   }
///   Reduce { state, action in
///     // Parent logic, which runs after the child's.
///   }
/// }
/// ```
///
/// The child runs only for actions of its case; its effects are mapped back into the parent
/// domain. Place the `Scope` before the parent's `Reduce` so the child sees its actions first.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>, fileID: StaticString, line: UInt)
  }

  @usableFromInline let toChildState: StatePath
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Initializes a reducer that runs the given child reducer against a slice of parent state and
  /// actions.
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path from parent state to a property containing child state.
  ///   - toChildAction: A case path from parent action to a case containing child actions.
  ///   - child: A reducer that is invoked with child state and actions.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
  }

  /// The same as ``init(state:action:child:)``, without the first label:
  /// `Scope(\.profile, action: \.profile) { Profile() }`.
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: toChildAction, child: child)
  }

  /// Initializes a reducer that runs the given child reducer against a case of enum parent state.
  ///
  /// An action for the child that arrives while the parent state is in another case is reported
  /// as an issue and ignored.
  ///
  /// - Parameters:
  ///   - toChildState: A case path from parent state to a case containing child state.
  ///   - toChildAction: A case path from parent action to a case containing child actions.
  ///   - child: A reducer that is invoked with child state and actions.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(AnyCasePath(toChildState), fileID: fileID, line: line)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    let toChildAction = self.toChildAction
    switch self.toChildState {
    case let .keyPath(keyPath):
      return self.child
        .reduce(into: &state[keyPath: keyPath], action: childAction)
        .map { toChildAction.embed($0) }

    case let .casePath(casePath, fileID, line):
      guard var childState = casePath.extract(from: state) else {
        reportIssue(
          """
          A "Scope" at "\(fileID):\(line)" received a child action when child state was set to \
          a different case.

            Action:
              \(debugCaseOutput(action))
            State:
              \(debugCaseOutput(state))

          This is generally considered an application logic error, and can happen for a few \
          reasons:

          A parent reducer set "\(typeNameWithoutModules(ParentState.self, genericsAbbreviated: true))" to a different case \
          before the scoped reducer ran. Child reducers must run before any parent reducer sets \
          child state to a different case. This ensures that child reducers can handle their \
          actions while their state is still available. Consider using "Reducer.ifCaseLet" to \
          embed this child reducer in the parent reducer that change its state to ensure the \
          child reducer runs first.

          An in-flight effect emitted this action when child state was unavailable. While it may \
          be perfectly reasonable to ignore this action, consider canceling the associated \
          effect before child state changes to another case, especially if it is a long-living \
          effect.

          This action was sent to the store while state was another case. Make sure that actions \
          for this reducer can only be sent from a store when state is set to the appropriate \
          case. In SwiftUI applications, use "SwitchStore".
          """
        )
        return .none
      }
      defer { state = casePath.embed(childState) }
      return self.child
        .reduce(into: &childState, action: childAction)
        .map { toChildAction.embed($0) }
    }
  }
}
