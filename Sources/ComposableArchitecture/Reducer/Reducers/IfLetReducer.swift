import CasePaths
import CustomDump
import Dependencies
import IssueReporting

extension Reducer {
  /// Embeds a child reducer in a parent domain that works on an optional property of parent state.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     // Parent logic, which runs after the child's.
  ///   }
  ///   .ifLet(\.child, action: \.child) {
  ///     Child()
  ///   }
  /// }
  /// ```
  ///
  /// The child runs before the parent, while its state is still there. When the child state
  /// becomes `nil` (or is replaced by a child with another identity), every effect the child
  /// started is cancelled. An action for the child while its state is `nil` is reported as an
  /// issue and ignored.
  ///
  /// - Parameters:
  ///   - toWrappedState: A writable key path from parent state to a property containing optional
  ///     child state.
  ///   - toWrappedAction: A case path from parent action to a case containing child actions.
  ///   - wrapped: A reducer that will be invoked with child actions against non-optional child
  ///     state.
  /// - Returns: A reducer that combines the child reducer with the parent reducer.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction),
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension Reducer {
  /// Embeds the reducer of an enum of features (``Reducer()`` on an enum) in a parent domain
  /// that works on an optional property of parent state: the feature of the current case runs.
  ///
  /// ```swift
  /// .ifLet(\.destination, action: \.destination)
  /// ```
  public func ifLet<ChildState: CaseReducerState, ChildAction>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, ChildState.StateReducer.Body>
  where ChildState.StateReducer.Action == ChildAction {
    self.ifLet(
      toChildState, action: toChildAction, then: { ChildState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Reducer {
  /// Embeds an alert or a confirmation dialog held in an optional (`@Presents var alert`, read
  /// through `\.alert`), which has no reducer of its own: `.ifLet(\.alert, action: \.alert)`.
  /// Any of its actions dismisses it, as tapping a button of an alert does.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    self.ifLet(
      toWrappedState, action: toWrappedAction, then: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer behind ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let location: _SourceLocation

  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    let childEffects = self.reduceChild(into: &state, action: action)
    let childIDBefore = self.navigationID(for: state)
    let parentEffects = self.parent.reduce(into: &state, action: action)
    let childIDAfter = self.navigationID(for: state)
    // NB: An alert or a dialog is gone once one of its actions has run, unless the parent put
    // another in its place.
    if childIDAfter == childIDBefore, self.toChildAction.extract(from: action) != nil,
      let child = state[keyPath: self.toChildState], isEphemeral(child)
    {
      state[keyPath: self.toChildState] = nil
    }

    @Dependency(\.navigationIDPath) var navigationIDPath
    let cancelEffects: Effect<Parent.Action> =
      if let childIDBefore, childIDBefore != childIDAfter {
        ._cancel(navigationIDPath: navigationIDPath.appending(childIDBefore))
      } else {
        .none
      }
    return .merge(childEffects, parentEffects, cancelEffects)
  }

  private func navigationID(for state: Parent.State) -> NavigationID? {
    state[keyPath: self.toChildState].map { NavigationID(keyPath: self.toChildState, value: $0) }
  }

  private func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    guard let childID = self.navigationID(for: state) else {
      reportIssue(
        """
        An "ifLet" at "\(self.location.fileID):\(self.location.line)" received a child action \
        when child state was "nil".

          Action:
        \(String(customDumping: action).indent(by: 4))

        This is generally considered an application logic error, and can happen for a few \
        reasons:

        A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
        before any other reducer sets child state to "nil". This ensures that child reducers can \
        handle their actions while their state is still available.

        An in-flight effect emitted this action when child state was "nil". While it may be \
        perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state becomes "nil", especially if it is a long-living effect.

        This action was sent to the store while state was "nil". Make sure that actions for this \
        reducer can only be sent from a store when state is non-"nil". In SwiftUI \
        applications, use "IfLetStore".
        """,
        fileID: self.location.fileID,
        filePath: self.location.filePath,
        line: self.location.line,
        column: self.location.column
      )
      return .none
    }
    @Dependency(\.navigationIDPath) var navigationIDPath
    let childPath = navigationIDPath.appending(childID)
    let toChildAction = self.toChildAction
    let effect = withNavigationIDPath(childPath) {
      state[keyPath: self.toChildState]._modifyIfPresent {
        self.child.reduce(into: &$0, action: childAction)
      } ?? .none
    }
    return
      effect
      .map { toChildAction.embed($0) }
      ._cancellable(navigationIDPath: childPath)
  }
}
