import CasePaths
import CustomDump
import Dependencies
import IssueReporting

extension Reducer {
  /// Embeds a child reducer in a parent domain that works on a case of parent enum state.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     // Parent logic, which runs after the child's.
  ///   }
  ///   .ifCaseLet(\.loggedIn, action: \.loggedIn) {
  ///     LoggedIn()
  ///   }
  /// }
  /// ```
  ///
  /// The child runs before the parent. When the state leaves the case, every effect the child
  /// started is cancelled. An action for the child while the state is in another case is reported
  /// as an issue and ignored.
  ///
  /// - Parameters:
  ///   - toCaseState: A case path from parent state to a case containing child state.
  ///   - toCaseAction: A case path from parent action to a case containing child actions.
  ///   - case: A reducer that will be invoked with child actions against child state when it is
  ///     present.
  /// - Returns: A reducer that combines the child reducer with the parent reducer.
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case>
  where CaseState == Case.State, CaseAction == Case.Action {
    _IfCaseLetReducer(
      parent: self,
      child: `case`(),
      toChildState: AnyCasePath(toCaseState),
      caseKeyPath: toCaseState,
      toChildAction: AnyCasePath(toCaseAction),
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer behind ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: AnyCasePath<Parent.State, Child.State>
  let caseKeyPath: AnyKeyPath
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let location: _SourceLocation

  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    let childEffects = self.reduceChild(into: &state, action: action)
    let childIDBefore = self.navigationID(for: state)
    let parentEffects = self.parent.reduce(into: &state, action: action)
    let childIDAfter = self.navigationID(for: state)

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
    self.toChildState.extract(from: state).map {
      NavigationID(keyPath: self.caseKeyPath, value: $0)
    }
  }

  private func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    guard var childState = self.toChildState.extract(from: state),
      let childID = self.navigationID(for: state)
    else {
      reportIssue(
        """
        An "ifCaseLet" at "\(self.location.fileID):\(self.location.line)" received a child \
        action when child state was set to a different case.

          Action:
        \(String(customDumping: action).indent(by: 4))
          State:
        \(String(customDumping: state).indent(by: 4))

        This is generally considered an application logic error, and can happen for a few \
        reasons:

        A parent reducer set "\(typeNameWithoutModules(Parent.State.self, genericsAbbreviated: true))" to a different case \
        before this reducer ran. This reducer must run before any other reducer sets child state \
        to a different case. This ensures that child reducers can handle their actions while \
        their state is still available.

        An in-flight effect emitted this action when child state was unavailable. While it may \
        be perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state changes to another case, especially if it is a long-living effect.

        This action was sent to the store while state was another case. Make sure that actions \
        for this reducer can only be sent from a store when state is set to the appropriate \
        case. In SwiftUI applications, use "SwitchStore".
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
    let effect = withNavigationIDPath(childPath) {
      self.child.reduce(into: &childState, action: childAction)
    }
    state = self.toChildState.embed(childState)
    let toChildAction = self.toChildAction
    return
      effect
      .map { toChildAction.embed($0) }
      ._cancellable(navigationIDPath: childPath)
  }
}
