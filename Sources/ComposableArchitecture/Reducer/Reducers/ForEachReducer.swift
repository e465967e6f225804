import CasePaths
import ConcurrencyExtras
import CustomDump
import Dependencies
import IdentifiedCollections
import IssueReporting

extension Reducer {
  /// Embeds a child reducer in a parent domain that works on elements of a collection in parent
  /// state.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in
  ///     // Parent logic, which runs after the element's.
  ///   }
  ///   .forEach(\.todos, action: \.todos) {
  ///     Todo()
  ///   }
  /// }
  /// ```
  ///
  /// The element runs before the parent. When an element is removed, every effect it started is
  /// cancelled. An action for an element that is not in the collection is reported as an issue
  /// and ignored.
  ///
  /// - Parameters:
  ///   - toElementsState: A writable key path from parent state to an `IdentifiedArray` of child
  ///     state.
  ///   - toElementAction: A case path from parent action to an ``IdentifiedAction`` of child
  ///     actions.
  ///   - element: A reducer that will be invoked with child actions against elements of child
  ///     state.
  /// - Returns: A reducer that combines the child reducer with the parent reducer.
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _ForEachReducer(
      parent: self,
      element: element(),
      elements: _InPlace(toElementsState),
      toElementAction: AnyCasePath(toElementAction),
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer behind ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let elements: _InPlace<Parent.State, IdentifiedArray<ID, Element.State>>
  var toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>> {
    self.elements.keyPath
  }
  let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let location: _SourceLocation

  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    let elementEffects = self.reduceForEach(into: &state, action: action)
    let idsBefore = state[keyPath: self.toElementsState].ids
    let parentEffects = self.parent.reduce(into: &state, action: action)
    let idsAfter = state[keyPath: self.toElementsState].ids

    var cancelEffects: Effect<Parent.Action> = .none
    if idsBefore != idsAfter {
      @Dependency(\.navigationIDPath) var navigationIDPath
      for id in idsBefore where idsAfter.contains(id) == false {
        cancelEffects = cancelEffects.merge(
          with: ._cancel(navigationIDPath: navigationIDPath.appending(self.navigationID(for: id)))
        )
      }
    }
    return .merge(elementEffects, parentEffects, cancelEffects)
  }

  private func navigationID(for id: ID) -> NavigationID {
    NavigationID(keyPath: self.toElementsState, identity: AnyHashable(id))
  }

  private func reduceForEach(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard case let .element(id, elementAction)? = self.toElementAction.extract(from: action)
    else { return .none }
    guard let index = state[keyPath: self.toElementsState].index(id: id) else {
      reportIssue(
        """
        A "forEach" at "\(self.location.fileID):\(self.location.line)" received an action for a \
        missing element.

          Action:
            \(debugCaseOutput(action))

        This is generally considered an application logic error, and can happen for a few \
        reasons:

        A parent reducer removed an element with this ID before this reducer ran. This reducer \
        must run before any other reducer removes an element, which ensures that element reducers \
        can handle their actions while their state is still available.

        An in-flight effect emitted this action when state contained no element at this ID. \
        While it may be perfectly reasonable to ignore this action, consider canceling the \
        associated effect before an element is removed, especially if it is a long-living effect.

        This action was sent to the store while its state contained no element at this ID. To \
        fix this make sure that actions for this reducer can only be sent from a store when \
        its state contains an element at this id. In SwiftUI applications, use "ForEachStore".
        """,
        fileID: self.location.fileID,
        filePath: self.location.filePath,
        line: self.location.line,
        column: self.location.column
      )
      return .none
    }
    @Dependency(\.navigationIDPath) var navigationIDPath
    let elementPath = navigationIDPath.appending(self.navigationID(for: id))
    let effect = withNavigationIDPath(elementPath) {
      self.elements.modify(&state) {
        self.element.reduce(into: &$0[index], action: elementAction)
      }
    }
    let toElementAction = self.toElementAction
    return
      effect
      .map { toElementAction.embed(.element(id: id, action: $0)) }
      ._cancellable(navigationIDPath: elementPath)
  }
}
