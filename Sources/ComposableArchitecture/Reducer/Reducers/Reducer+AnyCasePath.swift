import CasePaths

// The operators as TCA wrote them before case key paths, with a case path made by `/Action.child`
// (CasePaths' `AnyCasePath`). TCA still accepts them, deprecated, and its own tests use them; each
// runs the same reducer as its case-key-path form.

extension Reducer {
  /// ``ifLet(_:action:destination:fileID:filePath:line:column:)`` with an `AnyCasePath`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.destination'.")
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
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
      toPresentationAction: toPresentationAction,
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// The alert or dialog form of ``ifLet(_:action:destination:fileID:filePath:line:column:)``
  /// with an `AnyCasePath`: `.ifLet(\.$alert, action: /Action.alert)`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.alert'.")
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    self.ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The alert or dialog form of ``ifLet(_:action:then:fileID:filePath:line:column:)`` with an
  /// `AnyCasePath`: `.ifLet(\.alert, action: /Action.alert)`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.alert'.")
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    self.ifLet(
      toWrappedState, action: toWrappedAction, then: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// ``ifLet(_:action:then:fileID:filePath:line:column:)`` with an `AnyCasePath`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.child'.")
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
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
      toChildAction: toWrappedAction,
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// ``ifCaseLet(_:action:then:fileID:filePath:line:column:)`` with `AnyCasePath`s.
  @available(
    *, deprecated, message: "Use case key paths: '.ifCaseLet(\\.child, action: \\.child)'."
  )
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case>
  where CaseState == Case.State, CaseAction == Case.Action {
    // NB: Only one case of the state is present at a time, so the parent state itself tells
    // this child apart from another case's; its identity, if any, tells one child from the next.
    _IfCaseLetReducer(
      parent: self,
      child: `case`(),
      toChildState: toCaseState,
      caseKeyPath: \State.self,
      toChildAction: toCaseAction,
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// ``forEach(_:action:element:fileID:filePath:line:column:)`` with an `AnyCasePath` to a case
  /// that carries an element's id and action: `action: /Action.row(id:action:)`.
  @available(
    *, deprecated, message: "Use 'IdentifiedAction' and a case key path: 'action: \\.rows'."
  )
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, (ID, ElementAction)>,
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
      toElementAction: AnyCasePath(
        embed: { identified in
          switch identified {
          case let .element(id, action): toElementAction.embed((id, action))
          }
        },
        extract: { action in
          toElementAction.extract(from: action).map { .element(id: $0.0, action: $0.1) }
        }
      ),
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// ``forEach(_:action:destination:fileID:filePath:line:column:)`` with an `AnyCasePath`.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.path'.")
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
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
      toStackAction: toStackAction,
      location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension Scope {
  init(
    toChildState: StatePath, toChildAction: AnyCasePath<ParentAction, Child.Action>, child: Child
  ) {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child
  }

  /// ``init(state:action:child:)`` with an `AnyCasePath` for the action.
  @available(*, deprecated, message: "Use a case key path: 'action: \\.child'.")
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(toChildState: .keyPath(toChildState), toChildAction: toChildAction, child: child())
  }

  /// ``init(state:action:child:fileID:line:)`` with `AnyCasePath`s.
  @available(
    *, deprecated, message: "Use case key paths: 'Scope(state: \\.child, action: \\.child)'."
  )
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      toChildState: .casePath(toChildState, fileID: fileID, line: line),
      toChildAction: toChildAction, child: child())
  }
}
