import CasePaths
import CustomDump
import Dependencies
import IssueReporting

extension Reducer {
  /// Runs the screens of a navigation stack: a screen's reducer for the actions sent to it, before
  /// the parent.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.path, action: \.path)
  /// }
  /// ```
  ///
  /// - `.element(id:action:)` runs the screen with that identity, then the parent.
  /// - `.push(id:state:)` pushes the screen with that identity, then runs the parent.
  /// - `.popFrom(id:)` runs the parent with the screens still there, then pops them.
  /// - The effects of a screen are cancelled when it leaves the stack, however it leaves: when a
  ///   parent removes it outside this reducer, at the next action that reaches it.
  /// - Inside a screen's effects, `@Dependency(\.dismiss)` pops it and
  ///   `@Dependency(\.isPresented)` is `true`.
  /// - An action for a screen that is not in the stack is reported as an issue.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _StackReducer(
      base: self,
      destination: destination(),
      toStackState: toStackState,
      toStackAction: AnyCasePath(toStackAction),
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs a stack of an enum of screens (``Reducer()`` on an enum): `.forEach(\.path, action:
  /// \.path)`.
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.forEach(
      toStackState, action: toStackAction, destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer behind ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``.
public struct _StackReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let destination: Destination
  let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>
  let toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  let location: _SourceLocation

  public func reduce(
    into state: inout Base.State, action: Base.Action
  ) -> Effect<Base.Action> {
    // NB: As TCA's: the screens this reducer saw last time, so that a screen the parent removed
    // outside it is cancelled when the next action reaches it; and those there now, for a screen
    // that had effects started before it was ever seen.
    var idsBefore = state[keyPath: self.toStackState].mounted
    for id in state[keyPath: self.toStackState].ids where !idsBefore.contains(id) {
      idsBefore.append(id)
    }
    var destinationEffects: Effect<Base.Action> = .none
    var popFrom: StackElementID?
    switch self.toStackAction.extract(from: action) {
    case let .element(id, elementAction)?:
      if state[keyPath: self.toStackState][id: id] != nil {
        destinationEffects = self.reduceElement(into: &state, id: id, action: elementAction)
      } else {
        self.reportMissingElement(action: elementAction)
      }
    case let .popFrom(id)?:
      if state[keyPath: self.toStackState][id: id] != nil {
        popFrom = id
      } else {
        self.report(
          "received a \"popFrom\" action for a missing element.", id: id,
          ids: state[keyPath: self.toStackState].ids)
      }
    case let .push(id, elementState)?:
      // NB: As TCA: the screen is on the stack when the parent runs, and screens appended
      // later get identities after its.
      if state[keyPath: self.toStackState][id: id] == nil {
        @Dependency(\.stackElementID) var stackElementID
        @Dependency(\.context) var context
        // NB: As TCA's: a test that pushes a screen names the identity the store would give it.
        if context == .test, stackElementID.canPeek, id > stackElementID.peek() {
          self.reportUnexpectedGeneration(id, expected: stackElementID.peek())
        }
        stackElementID.take(id)
        state[keyPath: self.toStackState].append(elementState, id: id)
      } else {
        self.report(
          "received a \"push\" action for an element it already contains.", id: id,
          ids: state[keyPath: self.toStackState].ids)
      }
    case nil:
      break
    }
    let baseEffects = self.base.reduce(into: &state, action: action)
    if let popFrom {
      state[keyPath: self.toStackState].pop(from: popFrom)
    }
    // Every screen that left the stack, however it left, has its effects cancelled.
    let idsAfter = Set(state[keyPath: self.toStackState].ids)
    if state[keyPath: self.toStackState].mounted != state[keyPath: self.toStackState].ids {
      state[keyPath: self.toStackState].mounted = state[keyPath: self.toStackState].ids
    }
    @Dependency(\.navigationIDPath) var navigationIDPath
    let cancelEffects = Effect<Base.Action>.merge(
      idsBefore.filter { !idsAfter.contains($0) }.map {
        ._cancel(navigationIDPath: navigationIDPath.appending(self.navigationID($0)))
      }
    )
    return .merge(destinationEffects, baseEffects, cancelEffects)
  }

  private func navigationID(_ id: StackElementID) -> NavigationID {
    NavigationID(keyPath: self.toStackState, identity: AnyHashable(id))
  }

  private func reduceElement(
    into state: inout Base.State, id: StackElementID, action: Destination.Action
  ) -> Effect<Base.Action> {
    @Dependency(\.navigationIDPath) var navigationIDPath
    let path = navigationIDPath.appending(self.navigationID(id))
    let effect = withDependencies {
      $0.navigationIDPath = path
      $0.isPresented = true
      $0.dismiss = .presented
    } operation: {
      state[keyPath: self.toStackState][id: id]._modifyIfPresent {
        self.destination.reduce(into: &$0, action: action)
      } ?? .none
    }
    let toStackAction = self.toStackAction
    return
      effect
      .map({ toStackAction.embed(.element(id: id, action: $0)) }) { send, operation in
        await PresentationDismissal.$current.withValue({
          send(toStackAction.embed(.popFrom(id: id)))
        }) {
          await operation()
        }
      }
      ._cancellable(navigationIDPath: path)
  }

  private func reportMissingElement(action: Destination.Action) {
    reportIssue(
      """
      A "forEach" at "\(self.location.fileID):\(self.location.line)" received an action for a \
      missing element.

        Action:
          \(debugCaseOutput(action))

      This is generally considered an application logic error, and can happen for a few reasons:

      A parent reducer removed an element with this ID before this reducer ran. This reducer \
      must run before any other reducer removes an element, which ensures that element \
      reducers can handle their actions while their state is still available.

      An in-flight effect emitted this action when state contained no element at this ID. \
      While it may be perfectly reasonable to ignore this action, consider canceling the \
      associated effect before an element is removed, especially if it is a long-living effect.

      This action was sent to the store while its state contained no element at this ID. To \
      fix this make sure that actions for this reducer can only be sent from a store when \
      its state contains an element at this id. In SwiftUI applications, use \
      "NavigationStack.init(path:)" with a binding to a store.
      """,
      fileID: self.location.fileID,
      filePath: self.location.filePath,
      line: self.location.line,
      column: self.location.column
    )
  }

  private func reportUnexpectedGeneration(_ id: StackElementID, expected: StackElementID) {
    reportIssue(
      """
      A "forEach" at "\(self.location.fileID):\(self.location.line)" received a "push" action \
      with an unexpected generational ID.

        Received ID:
          \(id)
        Expected ID:
          \(expected)
      """,
      fileID: self.location.fileID,
      filePath: self.location.filePath,
      line: self.location.line,
      column: self.location.column
    )
  }

  private func report(_ what: String, id: StackElementID, ids: [StackElementID]) {
    reportIssue(
      """
      A "forEach" at "\(self.location.fileID):\(self.location.line)" \(what)

        ID:
          \(id)
        Path IDs:
          \(ids)
      """,
      fileID: self.location.fileID,
      filePath: self.location.filePath,
      line: self.location.line,
      column: self.location.column
    )
  }

}
