import CasePaths
import Dependencies
import Foundation
import Observation

/// A store represents the runtime that powers the application: it holds the state, runs the
/// reducer for every action it receives, and runs the effects the reducer returns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.incrementButtonTapped)
/// print(store.state.count)  // 1
/// ```
///
/// Actions sent while the reducer is running (from an effect created with ``Effect/send(_:)``, or
/// from an observer) are buffered and processed in order after it returns: the reducer never runs
/// re-entrantly. Effects run as tasks.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action>: Observable {
  let core: any _StoreCore<State, Action>

  /// Creates a store from an initial state and a reducer.
  ///
  /// - Parameters:
  ///   - initialState: The state to start the application in.
  ///   - reducer: The reducer that powers the business logic of the application.
  ///   - prepareDependencies: A closure that can be used to override dependencies that will be
  ///     accessed by the reducer.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    // NB: Prepared inside the library's `withDependencies`, where reading a dependency in order
    // to change it (`$0.date.now = …`) is not an access that test contexts report.
    let dependencies = withDependencies {
      prepareDependencies?(&$0)
    } operation: {
      DependencyValues._current
    }
    let (initialState, reducer) = withDependencies {
      $0 = dependencies
    } operation: {
      (initialState(), reducer())
    }
    self.init(
      core: _RootCore(
        initialState: initialState, reducer: reducer, dependencies: dependencies, prepare: true
      )
    )
  }

  /// - Parameter canCacheChildren: Whether scoping by key paths gives the same child store while
  ///   it is in use: not for a store scoped by functions, nor for what is scoped from it.
  init(core: any _StoreCore<State, Action>, canCacheChildren: Bool = true) {
    self.core = core
    self.canCacheChildren = canCacheChildren
    Logger.shared.log("\(storeTypeName(of: Self.self)).init")
    // NB: Observers of the store (Observation) are told after each action, as a whole.
    self.actionObserver = core.addActionObserver { [weak self] in
      guard let self else { return }
      self.observationRegistrar.withMutation(of: self, keyPath: self.stateKeyPath) {}
    }
  }

  // NB: Isolated, as the logger is: a store let go on the main actor logs at once, one let go
  // elsewhere when the main actor next runs.
  isolated deinit {
    self.core.removeObserver(self.actionObserver)
    Logger.shared.log("\(storeTypeName(of: Store.self)).deinit")
  }

  let canCacheChildren: Bool
  private var actionObserver = 0
  private var parent: AnyObject?
  /// The stores scoped from this one by key paths, held weakly: scoping again while a child is
  /// in use gives that child, as TCA's cache does, without keeping a child nobody holds.
  private var children: [_ScopeID: _WeakStore] = [:]
  private var childrenPruneCount = 16

  private let observationRegistrar = ObservationRegistrar()
  /// `\.state`, made once: a key path into a generic class is built anew each time its literal
  /// is evaluated, which every send and every read of the state would pay for.
  private let stateKeyPath: KeyPath<Store, State> = \.state

  /// The current state of the store.
  ///
  /// Reading it inside `withObservationTracking` tracks the store: the `onChange` closure runs
  /// when the next action has been reduced.
  public var state: State {
    self.observationRegistrar.access(self, keyPath: self.stateKeyPath)
    return self.core.state
  }

  /// Reads a value from the current state, tracked as ``state`` is.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    self.observationRegistrar.access(self, keyPath: self.stateKeyPath)
    return self.core.state[keyPath: keyPath]
  }

  /// Sends an action to the store.
  ///
  /// The reducer runs immediately, together with every action its effects send synchronously;
  /// asynchronous effects start as tasks.
  ///
  /// - Parameters:
  ///   - action: An action.
  ///   - fileID: The file that sends the action, which a recording names as its origin
  ///     (``ActionContext/site``).
  ///   - line: The line that sends the action.
  /// - Returns: A ``StoreTask`` that represents the lifecycle of the effects started by sending
  ///   the action: await ``StoreTask/finish()`` to wait for them, or cancel them.
  @discardableResult
  public func send(
    _ action: Action, fileID: StaticString = #fileID, line: UInt = #line
  ) -> StoreTask {
    let tasks = _TaskList()
    self.core.send(
      action, origin: .send, site: CallSite(fileID: fileID, line: line), tasks: tasks)
    return StoreTask(rawValue: tasks.isEmpty ? nil : tasks.waiter())
  }

  /// ``send(_:fileID:line:)`` with the site given, or none: what a benchmark compares sending
  /// with and without call sites by.
  @_spi(Internals) @discardableResult
  public func _send(_ action: Action, site: CallSite?) -> StoreTask {
    let tasks = _TaskList()
    self.core.send(action, origin: .send, site: site, tasks: tasks)
    return StoreTask(rawValue: tasks.isEmpty ? nil : tasks.waiter())
  }

  /// Scopes the store to one that exposes child state and actions.
  ///
  /// ```swift
  /// let childStore = store.scope(\.child, action: \.child)
  /// ```
  ///
  /// - Parameters:
  ///   - state: A key path from `State` to `ChildState`.
  ///   - action: A case key path from `Action` to `ChildAction`.
  /// - Returns: A new store with its domain (state and action) transformed.
  public func scope<ChildState, ChildAction>(
    _ state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    self.scope(id: _ScopeID(state: state, action: action)) {
      let embed = AnyCasePath(action)
      return _ScopedCore(
        parent: self.core, toState: { $0[keyPath: state] }, fromAction: embed.embed)
    }
  }

  /// The child store cached under `id` while it lives, or a new one from `makeCore`.
  func scope<ChildState, ChildAction>(
    id: _ScopeID,
    makeCore: () -> any _StoreCore<ChildState, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    guard self.canCacheChildren else {
      return Store<ChildState, ChildAction>(core: makeCore(), canCacheChildren: false)
    }
    if let child = self.children[id]?.store as? Store<ChildState, ChildAction> {
      return child
    }
    let child = Store<ChildState, ChildAction>(core: makeCore())
    // NB: The child keeps its parent, and with it the parent's cache, while it lives: the stores
    // of a collection's elements stay the same for as long as one of them is held.
    child.parent = self
    self.children[id] = _WeakStore(store: child)
    if self.children.count >= self.childrenPruneCount {
      self.children = self.children.filter { $0.value.store != nil }
      self.childrenPruneCount = max(16, 2 * self.children.count)
    }
    return child
  }

  /// The same as ``scope(_:action:)``, with the state's label: the spelling before TCA 1.25.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    self.scope(state, action: action)
  }

  /// Scopes the store with functions rather than key paths, as TCA did before 1.5.
  ///
  /// `state` runs on every read of the child's state; the child store is not one a parent can
  /// find again.
  @available(
    *, deprecated,
    message:
      "Pass 'state' a key path to child state and 'action' a case key path to child action, instead."
  )
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (_ state: State) -> ChildState,
    action fromChildAction: @escaping (_ childAction: ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(
      core: _ScopedCore(parent: self.core, toState: toChildState, fromAction: fromChildAction),
      canCacheChildren: false
    )
  }

  /// Reads the current state through `body`, without tracking the store.
  @available(*, deprecated, message: "Use '@ObservableState' and read the store's state, instead.")
  public func withState<R>(_ body: (_ state: State) -> R) -> R {
    body(self.core.state)
  }

  /// The state, read without tracking the store.
  @_spi(Internals) public var currentState: State {
    self.core.state
  }

  /// Sends an action and returns the task of the effects it started, if any: what TCA's own
  /// tests await.
  @_spi(Internals) @_disfavoredOverload @discardableResult
  public func send(_ action: Action) -> Task<Void, Never>? {
    self._send(action, site: nil).rawValue
  }

  /// The tasks of the root store's effects in flight, by key: an effect leaves the moment it
  /// finishes or is cancelled.
  @_spi(Internals) public var effectCancellables: [Int: Task<Void, Never>] {
    self.core.effectTasksInFlight
  }

  /// Calls `onChange` with the new state after every action the store processes, until the
  /// returned observation is cancelled or released.
  ///
  /// - Parameter onChange: A closure that receives the state.
  /// - Returns: A token; keep it for as long as you want to observe.
  public func observe(_ onChange: @escaping @MainActor (State) -> Void) -> StoreObservation {
    let id = self.core.addObserver(onChange)
    return StoreObservation { [core = self.core] in core.removeObserver(id) }
  }
}

extension Store where State: Equatable {
  /// Calls `onChange` with the new state after every action that changed it, until the returned
  /// observation is cancelled or released.
  ///
  /// - Parameter onChange: A closure that receives the state.
  /// - Returns: A token; keep it for as long as you want to observe.
  public func observeChanges(
    _ onChange: @escaping @MainActor (State) -> Void
  ) -> StoreObservation {
    var last = self.state
    return self.observe { state in
      guard state != last else { return }
      last = state
      onChange(state)
    }
  }
}

extension Store where State: Sendable {
  /// The states of the store after each action it processes, as an asynchronous sequence.
  ///
  /// The sequence ends when the task iterating it is cancelled.
  public var states: AsyncStream<State> {
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
    let observation = self.observe { continuation.yield($0) }
    continuation.onTermination = { _ in
      Task { @MainActor in observation.cancel() }
    }
    return stream
  }
}

/// What a store caches a child scoped by key paths under: the two paths.
struct _ScopeID: Hashable {
  let state: AnyKeyPath
  let action: AnyKeyPath
}

struct _WeakStore {
  weak var store: AnyObject?
}

/// A convenience for the store of a reducer: `StoreOf<Feature>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// A token that keeps a ``Store/observe(_:)`` observation alive.
@MainActor
public final class StoreObservation {
  private var onCancel: (@MainActor () -> Void)?

  init(onCancel: @escaping @MainActor () -> Void) {
    self.onCancel = onCancel
  }

  isolated deinit {
    self.cancel()
  }

  /// Stops the observation.
  public func cancel() {
    self.onCancel?()
    self.onCancel = nil
  }
}
