import Foundation
import CasePaths
import CustomDump
import Dependencies
import IssueReporting

extension Reducer {
  /// Runs a presented feature: the destination reducer for actions sent to it while its state is
  /// presented, before the parent.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.$destination, action: \.destination) {
  ///       Destination.body
  ///     }
  /// }
  /// ```
  ///
  /// - `.presented(action)` runs the destination, then the parent; an alert or a dialog (an
  ///   ``AlertState`` or ``ConfirmationDialogState``, or an enum case holding one) is dismissed
  ///   after its button's action.
  /// - `.dismiss` runs the parent with the state still there, then sets it to `nil`.
  /// - When the presented state goes away or is replaced by another, the effects the destination
  ///   started are cancelled.
  /// - Inside the destination's effects, `@Dependency(\.dismiss)` dismisses it and
  ///   `@Dependency(\.isPresented)` is `true`.
  /// - An action for a destination that is not presented is reported as an issue.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      base: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction),
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs a presented enum of features (``Reducer()`` on an enum): `.ifLet(\.$destination,
  /// action: \.destination)`.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents an alert or a dialog, which has no reducer: `.ifLet(\.$alert, action: \.alert)`.
  /// It is dismissed after any of its buttons' actions.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer behind ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``.
public struct _PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let destination: Destination
  let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>
  let location: _SourceLocation
  let childName = _ChildName()

  public func reduce(
    into state: inout Base.State, action: Base.Action
  ) -> Effect<Base.Action> {
    let presented = state[keyPath: self.toPresentationState].wrappedValue
    let idBefore = self.navigationID(for: state)
    var destinationEffects: Effect<Base.Action> = .none
    var dismisses = false
    switch (presented, self.toPresentationAction.extract(from: action)) {
    case (.some(let destinationState), .presented(let destinationAction)?):
      destinationEffects = self.reduceDestination(
        into: &state, action: destinationAction, id: idBefore)
      // NB: As TCA's: an alert goes away after one of its buttons' actions, not after an action
      // meant for another case of the destination.
      dismisses =
        ephemeralActionType(of: destinationState).map {
          isAction(destinationAction, of: $0)
        } ?? false
    case (.some, .dismiss?):
      dismisses = true
    case (nil, let presentationAction?):
      self.reportAbsent(action: action)
    case (_, nil):
      break
    }
    let baseEffects = self.base.reduce(into: &state, action: action)
    // NB: Only what was presented is dismissed: the parent may have presented something else.
    if dismisses, idBefore != nil, self.navigationID(for: state) == idBefore {
      state[keyPath: self.toPresentationState].wrappedValue = nil
    }
    // NB: As TCA's: the presentation this reducer saw last time is cancelled too, when a parent
    // dismissed or replaced it outside this reducer.
    @Dependency(\.navigationIDPath) var navigationIDPath
    let idAfter = self.navigationID(for: state)
    var cancelled: [NavigationID] = []
    for id in [state[keyPath: self.toPresentationState].presentedID, idBefore]
    where id != nil && id != idAfter && !cancelled.contains(id!) {
      cancelled.append(id!)
    }
    if state[keyPath: self.toPresentationState].presentedID != idAfter {
      state[keyPath: self.toPresentationState].presentedID = idAfter
    }
    let cancelEffects = Effect<Base.Action>.merge(
      cancelled.map { ._cancel(navigationIDPath: navigationIDPath.appending($0)) }
    )
    return .merge(destinationEffects, baseEffects, cancelEffects)
  }

  private func reduceDestination(
    into state: inout Base.State, action: Destination.Action, id: NavigationID?
  ) -> Effect<Base.Action> {
    guard let id else { return .none }
    @Dependency(\.navigationIDPath) var navigationIDPath
    let path = navigationIDPath.appending(id)
    let effect = withDependencies {
      $0.navigationIDPath = path
      $0.isPresented = true
      $0.dismiss = .presented
    } operation: {
      state[keyPath: self.toPresentationState].wrappedValue._modifyIfPresent {
        self.destination.reduce(into: &$0, action: action)
      } ?? .none
    }
    let toPresentationAction = self.toPresentationAction
    return
      effect
      .map({ toPresentationAction.embed(.presented($0)) }) { send, operation in
        await PresentationDismissal.$current.withValue({
          send(toPresentationAction.embed(.dismiss))
        }) {
          await operation()
        }
      }
      ._cancellable(navigationIDPath: path)
  }

  /// The presented feature's identity: where it is, its `id` when it is `Identifiable`, and the
  /// case of an enum of destinations.
  private func navigationID(for state: Base.State) -> NavigationID? {
    state[keyPath: self.toPresentationState].wrappedValue.map {
      NavigationID(
        keyPath: self.toPresentationState, identity: presentationIdentity(of: $0),
        name: self.childName.name(in: state, of: PresentationState<Destination.State>.self)
      )
    }
  }

  private func reportAbsent(action: Base.Action) {
    reportIssue(
      """
      An "ifLet" at "\(self.location.fileID):\(self.location.line)" received a presentation \
      action when destination state was absent.

        Action:
          \(debugCaseOutput(action))

      This is generally considered an application logic error, and can happen for a few \
      reasons:

      A parent reducer set destination state to "nil" before this reducer ran. This reducer \
      must run before any other reducer sets destination state to "nil". This ensures that \
      destination reducers can handle their actions while their state is still present.

      This action was sent to the store while destination state was "nil". Make sure that \
      actions for this reducer can only be sent from a store when state is present, or \
      from effects that start from this reducer.
      """,
      fileID: self.location.fileID,
      filePath: self.location.filePath,
      line: self.location.line,
      column: self.location.column
    )
  }

}

/// Who a presented value is: its `id` when `Identifiable`; for an enum, its case and the identity
/// of what that case holds. Replacing `.edit(…)` by `.alert(…)` is a new presentation.
func presentationIdentity(of value: Any) -> AnyHashable? {
  if let identifiable = value as? any Identifiable {
    func open<T: Identifiable>(_ value: T) -> AnyHashable { AnyHashable(value.id) }
    let id = open(identifiable)
    return value is any _EphemeralState ? AnyHashable(EphemeralIdentity(id: id)) : id
  }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  guard let child = mirror.children.first, let label = child.label else {
    return AnyHashable(String(describing: value))
  }
  return AnyHashable([AnyHashable(label), AnyHashable(presentationIdentity(of: child.value))])
}

/// The identity of an alert or a dialog: new for each one made, so that a parent that presents
/// another in answer to a button keeps it. It tells presentations apart within a run and is never
/// put in words (an effect's shape), since each run makes new ones.
struct EphemeralIdentity: Hashable {
  let id: AnyHashable
}

/// The type of what an alert or a dialog sends, presented alone or as a case of an enum of
/// destinations; `nil` for a feature that is not ephemeral.
func ephemeralActionType(of value: Any) -> Any.Type? {
  if let ephemeral = value as? any _EphemeralState { return type(of: ephemeral)._actionType }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let child = mirror.children.first,
    let ephemeral = child.value as? any _EphemeralState
  else { return nil }
  return type(of: ephemeral)._actionType
}

/// Whether `action` is of `type`, or a case of an enum that carries one.
func isAction(_ action: Any, of type: Any.Type) -> Bool {
  if Swift.type(of: action) == type { return true }
  let mirror = Mirror(reflecting: action)
  guard mirror.displayStyle == .enum, let child = mirror.children.first else { return false }
  return Swift.type(of: child.value) == type
}

/// Whether a presented value is an alert or a dialog (or an enum case holding one), dismissed
/// after any action of its buttons.
func isEphemeral(_ value: Any) -> Bool {
  if value is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let child = mirror.children.first else { return false }
  return child.value is any _EphemeralState
}

/// The name of the property that holds a presented feature, found once, from the parent's state:
/// `destination` for `@Presents var destination`, whose `\.$destination` cannot say it.
final class _ChildName: @unchecked Sendable {
  private let lock = NSLock()
  private var found: String??

  func name<Value>(in parent: Any, of type: Value.Type) -> String? {
    self.lock.withLock {
      if let found = self.found { return found }
      let labels = Mirror(reflecting: parent).children.compactMap { child in
        child.value is Value ? child.label : nil
      }
      let name = labels.count == 1 ? String(labels[0].drop { $0 == "_" }) : nil
      self.found = .some(name)
      return name
    }
  }
}
