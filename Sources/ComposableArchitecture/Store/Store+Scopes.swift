import CasePaths
import IdentifiedCollections
import IssueReporting

extension Store where State: ObservableState {
  /// Scopes the store to optional child state: `nil` while the state is `nil`, else a store of
  /// the unwrapped state.
  ///
  /// ```swift
  /// if let childStore = store.scope(\.child, action: \.child.presented) { … }
  /// ```
  ///
  /// The child store keeps the last non-`nil` state it saw, so that a view still reading it
  /// while the parent dismisses it reads a value; its actions go to the parent either way.
  public func scope<ChildState, ChildAction>(
    _ state: KeyPath<State, ChildState?>,
    action: CaseKeyPath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction>? {
    self.reportIfUncached(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let childState = self.core.state[keyPath: state] else { return nil }
    return self.scope(id: _ScopeID(state: state, action: action)) {
      _ScopedCore(
        parent: self.core, toState: _lastNonNil(state, startingWith: childState),
        fromAction: AnyCasePath(action).embed)
    }
  }

  /// The same as ``scope(_:action:fileID:filePath:line:column:)-(KeyPath<State,ChildState?>,_,_,_,_,_)``,
  /// with the state's label: the spelling before TCA 1.25.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState?>,
    action: CaseKeyPath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction>? {
    self.scope(
      state, action: action, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Scopes the store to the elements of an identified collection: a collection with a store
  /// for each element, scoped by its identifier.
  ///
  /// ```swift
  /// for rowStore in store.scope(\.rows, action: \.rows) { … }
  /// ```
  @_disfavoredOverload
  public func scope<ElementID, ElementState, ElementAction>(
    _ state: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StoreCollection<ElementID, ElementState, ElementAction> {
    self.reportIfUncached(fileID: fileID, filePath: filePath, line: line, column: column)
    return _StoreCollection(self.scope(state, action: action))
  }

  /// The same as the identified collection's ``scope(_:action:fileID:filePath:line:column:)``,
  /// with the state's label.
  @_disfavoredOverload
  public func scope<ElementID, ElementState, ElementAction>(
    state: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StoreCollection<ElementID, ElementState, ElementAction> {
    self.scope(
      state, action: action, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Store {
  /// Reports a scope that needs a cached parent (an optional or a collection scope) made from a
  /// store scoped by functions, as TCA does.
  func reportIfUncached(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    guard !self.canCacheChildren else { return }
    reportIssue(
      _uncachedStoreMessage(storeTypeName(of: Self.self)),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The stores of an identified collection's elements, in the collection's order when it was
/// scoped; each element's store is scoped by its identifier.
@MainActor
public struct _StoreCollection<ID: Hashable & Sendable, State, Action>: RandomAccessCollection {
  private let store: Store<IdentifiedArray<ID, State>, IdentifiedAction<ID, Action>>
  private let data: IdentifiedArray<ID, State>
  public nonisolated let endIndex: Int

  init(_ store: Store<IdentifiedArray<ID, State>, IdentifiedAction<ID, Action>>) {
    self.store = store
    self.data = store.state
    self.endIndex = self.data.count
  }

  public nonisolated var startIndex: Int { 0 }

  public nonisolated subscript(position: Int) -> Store<State, Action> {
    MainActor.assumeIsolated {
      let id = self.data.ids[position]
      let element = self.data[position]
      let statePath: KeyPath<IdentifiedArray<ID, State>, State?> = \.[id: id]
      let actionPath: CaseKeyPath<IdentifiedAction<ID, Action>, Action> = \.[id: id]
      return self.store.scope(id: _ScopeID(state: statePath, action: actionPath)) {
        _ScopedCore(
          parent: self.store.core, toState: _lastNonNil(statePath, startingWith: element),
          fromAction: AnyCasePath(actionPath).embed)
      }
    }
  }
}

extension Store {
  /// Calls `unwrap` with a store of the unwrapped state each time the state becomes non-`nil`
  /// (now, if it is), and `else` each time it becomes `nil`, until the returned observation is
  /// cancelled or released.
  @available(*, deprecated, message: "Use 'scope' with an optional key path, instead.")
  public func ifLet<Wrapped>(
    then unwrap: @escaping @MainActor (_ store: Store<Wrapped, Action>) -> Void,
    else: @escaping @MainActor () -> Void = {}
  ) -> StoreObservation where State == Wrapped? {
    var wasPresent: Bool?
    // NB: The store itself need not outlive the call, as a scope made for it does not.
    let core = self.core
    let canCacheChildren = self.canCacheChildren
    let update: @MainActor (State) -> Void = { state in
      let isPresent = state != nil
      guard isPresent != wasPresent else { return }
      wasPresent = isPresent
      if let wrapped = state {
        unwrap(
          Store<Wrapped, Action>(
            core: _ScopedCore(
              parent: core, toState: _lastNonNil(\.self, startingWith: wrapped),
              fromAction: { $0 }),
            canCacheChildren: canCacheChildren))
      } else {
        `else`()
      }
    }
    update(core.state)
    let id = core.addObserver(update)
    return StoreObservation { core.removeObserver(id) }
  }
}

/// Reads `path` from a parent's state, giving the last non-`nil` value once it is `nil`.
@MainActor
func _lastNonNil<Root, Value>(
  _ path: KeyPath<Root, Value?>, startingWith value: Value
) -> (Root) -> Value {
  var last = value
  return { root in
    if let value = root[keyPath: path] { last = value }
    return last
  }
}

/// The issue for an optional or collection scope from a store scoped by functions, worded as
/// TCA's (a no-break space after "2.", as there).
func _uncachedStoreMessage(_ store: String) -> String {
  """
  Scoping from uncached '\(store)' is not compatible with observation.

  This can happen for one of two reasons:

  1. A parent view scopes on a store using transform functions, which has been deprecated, \
  instead of with key paths and case paths. Read the migration guide for 1.5 to update these \
  scopes: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.5

  2.\u{00A0}A parent feature is using deprecated navigation APIs, such as 'IfLetStore', \
  'SwitchStore', 'ForEachStore', or any navigation view modifiers taking stores instead of \
  bindings. Read the migration guide for 1.7 to update those APIs: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.7
  """
}
