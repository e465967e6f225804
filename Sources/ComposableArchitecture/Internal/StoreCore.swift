import CasePaths
import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting

/// The machinery behind a ``Store``: the root core owns the state and runs the reducer; a scoped
/// core forwards to its parent.
@MainActor
protocol _StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action

  var state: State { get }
  func send(_ action: Action, origin: ActionOrigin, site: CallSite?, tasks: _TaskList)
  func addObserver(_ observer: @escaping @MainActor (State) -> Void) -> Int
  func removeObserver(_ id: Int)
  /// Calls `observer` after every action, without working out this core's state.
  func addActionObserver(_ observer: @escaping @MainActor () -> Void) -> Int
  /// The tasks of the root store's effects still in flight, by key.
  var effectTasksInFlight: [Int: Task<Void, Never>] { get }
  /// Whether the root store is processing actions: one sent now waits its turn.
  var isProcessingActions: Bool { get }
}

/// What a test store needs of a root core, whatever its reducer type.
@MainActor
protocol _RootStoreCore<State, Action>: _StoreCore {
  var dependencies: DependencyValues { get set }
  var didReduce: ((Action, ActionContext, State) -> Void)? { get set }
  var runningEffects: _RunningEffects { get }
  func cancelAllEffects()
}

/// The core of a root store: it owns the state, runs the reducer one action at a time, and runs
/// the effects the reducer returns.
@MainActor
final class _RootCore<R: Reducer>: _RootStoreCore {
  typealias State = R.State
  typealias Action = R.Action

  private(set) var state: State
  let reducer: R
  var dependencies: DependencyValues

  /// Called after the reducer processed an action, with the state it left.
  var didReduce: ((Action, ActionContext, State) -> Void)?
  /// The effects whose work has not returned yet.
  let runningEffects = _RunningEffects()

  private var buffer: [(action: Action, origin: ActionOrigin, site: CallSite?, tasks: _TaskList)] =
    []
  private var isSending = false
  private var lastActionID: UInt64 = 0
  private var nextTaskKey = 0
  private var effectTasks:
    [Int: (task: Task<Void, Never>, cancelIDs: [_CancelID], parent: UInt64)] =
      [:]
  private var cancellables: [_CancelID: Set<Int>] = [:]
  private var observers: [Int: @MainActor (State) -> Void] = [:]
  private var nextObserverID = 0

  /// - Parameter prepare: Whether a reducer that prepares its store's dependencies
  ///   (``_StoreDependencyPreparing``) is asked to. A test store's dependencies can change
  ///   between steps, and so are not prepared.
  init(initialState: State, reducer: R, dependencies: DependencyValues, prepare: Bool) {
    self.state = initialState
    self.reducer = reducer
    var dependencies = dependencies
    // NB: Stored at the root, so reducers find it without falling back to the library's cache of
    // default values on every read.
    dependencies.navigationIDPath = NavigationIDPath()
    dependencies._throttles = _Throttles()
    if prepare, let reducer = reducer as? any _StoreDependencyPreparing {
      reducer._prepare(storeDependencies: &dependencies)
    }
    self.dependencies = dependencies
  }

  isolated deinit {
    // NB: A store that goes cancels its effects, as TCA's root store does; they no longer count
    // as cancellable, though their tasks return later, with nothing to tell.
    let store = ObjectIdentifier(self)
    for (key, entry) in self.effectTasks {
      entry.task.cancel()
      guard !entry.cancelIDs.isEmpty else { continue }
      _cancellationCancellables.withValue { collection in
        for id in entry.cancelIDs { collection.remove(key: key, store: store, id: id) }
      }
    }
  }

  func send(_ action: Action, origin: ActionOrigin, site: CallSite?, tasks: _TaskList) {
    self.buffer.append((action, origin, site, tasks))
    guard !self.isSending else {
      // NB: What effects feed back waits its turn by design; an action sent from outside while
      // the store processes another (from an observer, or from a reducer holding the store) is
      // one TCA warns of, though it too waits its turn here.
      if origin == .send {
        reportIssue(
          """
          Sent '\(debugCaseOutput(action))' while an action was being processed.

          Reentrant actions are undefined and will be a precondition failure in a future version \
          of the library.
          """
        )
      }
      return
    }
    self.isSending = true
    defer {
      self.buffer.removeAll(keepingCapacity: true)
      self.isSending = false
    }
    var index = 0
    while index < self.buffer.count {
      let (action, origin, site, tasks) = self.buffer[index]
      index += 1
      self.lastActionID += 1
      let context = ActionContext(id: self.lastActionID, origin: origin, site: site)
      // NB: The store's dependencies are complete values, so pushing them is all the library's
      // `withDependencies` would do here, less its bookkeeping for update closures.
      let effect = ActionContext.$current.withValue(context) {
        DependencyValues.$_current.withValue(self.dependencies) {
          self.reducer.reduce(into: &self.state, action: action)
        }
      }
      self.didReduce?(action, context, self.state)
      self.start(
        effect, cancelIDs: [], parent: context.id, parentAction: action, own: nil, all: tasks)
      for observer in self.observers.values {
        observer(self.state)
      }
    }
  }

  func addObserver(_ observer: @escaping @MainActor (State) -> Void) -> Int {
    self.nextObserverID += 1
    self.observers[self.nextObserverID] = observer
    return self.nextObserverID
  }

  func removeObserver(_ id: Int) {
    self.observers[id] = nil
  }

  func addActionObserver(_ observer: @escaping @MainActor () -> Void) -> Int {
    self.addObserver { _ in observer() }
  }

  var effectTasksInFlight: [Int: Task<Void, Never>] {
    self.effectTasks.mapValues(\.task)
  }

  var isProcessingActions: Bool {
    self.isSending
  }

  /// Cancels every effect in flight.
  func cancelAllEffects() {
    for entry in self.effectTasks.values {
      entry.task.cancel()
    }
  }

  // MARK: - Running effects

  /// Starts an effect: synchronous parts (sent actions, cancellations) happen now, asynchronous
  /// parts become tasks appended to `own` (the tasks that make up this effect) and `all` (the
  /// tasks the `Store.send` that led here waits for).
  private func start(
    _ effect: Effect<Action>,
    cancelIDs: [_CancelID],
    parent: UInt64,
    parentAction: Action,
    own: _TaskList?,
    all: _TaskList
  ) {
    switch effect.structure {
    case .none:
      return

    case let .send(action, site):
      self.send(action, origin: .effect(parent: parent), site: site, tasks: all)

    case let .run(priority, run, operation):
      let site = run.site
      let key = self.nextTaskKey
      self.nextTaskKey += 1
      let isCompleted = LockIsolated(false)
      // NB: Read only to word a misuse, on the main actor where the action was reduced.
      let parentAction = UncheckedSendable(parentAction)
      let send = Send<Action> { [weak self] action in
        if isCompleted.value {
          reportIssue(
            """
            An action was sent from a completed effect.

              Action:
                \(debugCaseOutput(action))

              Effect returned from:
                \(debugCaseOutput(parentAction.value))

            Avoid sending actions using the 'send' argument from 'Effect.run' after the effect has \
            completed. This can happen if you escape the 'send' argument in an unstructured \
            context.

            To fix this, make sure that your 'run' closure does not return until you're done \
            calling 'send'.
            """
          )
        }
        self?.send(action, origin: .effect(parent: parent), site: site, tasks: all)
      }
      let running = self.runningEffects
      let task = Task(name: run.name, priority: priority) { @MainActor [weak self] in
        await _runEffect(operation, send: send) {
          isCompleted.setValue(true)
          running.finish(key)
        }
        self?.effectTaskDidFinish(key)
      }
      self.register(task, key: key, cancelIDs: cancelIDs, parent: parent)
      own?.append(task)
      all.append(task)

    case let .merge(effects):
      for effect in effects {
        self.start(
          effect, cancelIDs: cancelIDs, parent: parent, parentAction: parentAction, own: own,
          all: all)
      }

    case let .concatenate(effects):
      var remaining = effects[...]
      while let first = remaining.first, first.isSynchronous {
        self.start(
          first, cancelIDs: cancelIDs, parent: parent, parentAction: parentAction, own: own,
          all: all)
        remaining.removeFirst()
      }
      guard !remaining.isEmpty else { return }
      let key = self.nextTaskKey
      self.nextTaskKey += 1
      let running = self.runningEffects
      let task = Task { @MainActor [weak self, remaining = Array(remaining)] in
        for (index, effect) in remaining.enumerated() {
          guard let self, !Task.isCancelled else { break }
          let current = _TaskList()
          self.start(
            effect, cancelIDs: cancelIDs, parent: parent, parentAction: parentAction, own: current,
            all: all)
          // NB: With the last effect started (and counted as running on its own), the sequence
          // has nothing left to do: it is over, without waiting for the main actor to say so,
          // which a test store's end-of-test wait would hold up.
          if index == remaining.count - 1 { running.finish(key) }
          await withTaskCancellationHandler {
            await current.waitAll()
          } onCancel: {
            current.cancelAll()
          }
        }
        running.finish(key)
        self?.effectTaskDidFinish(key)
      }
      self.register(task, key: key, cancelIDs: cancelIDs, parent: parent)
      own?.append(task)
      all.append(task)

    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight {
        self.cancel(.id(id))
      }
      self.start(
        effect, cancelIDs: cancelIDs + [id], parent: parent, parentAction: parentAction, own: own,
        all: all)

    case let .cancel(target):
      self.cancel(target)
    }
  }

  private func register(
    _ task: Task<Void, Never>, key: Int, cancelIDs: [_CancelID], parent: UInt64
  ) {
    self.effectTasks[key] = (task, cancelIDs, parent)
    for id in cancelIDs {
      self.cancellables[id, default: []].insert(key)
    }
    if !cancelIDs.isEmpty {
      let store = ObjectIdentifier(self)
      _cancellationCancellables.withValue { collection in
        for id in cancelIDs { collection.insert(task, key: key, store: store, id: id) }
      }
    }
    self.runningEffects.start(key, parent: parent)
  }

  private func effectTaskDidFinish(_ key: Int) {
    guard let entry = self.effectTasks.removeValue(forKey: key) else { return }
    for id in entry.cancelIDs {
      self.cancellables[id]?.remove(key)
      if self.cancellables[id]?.isEmpty == true {
        self.cancellables[id] = nil
      }
    }
    if !entry.cancelIDs.isEmpty {
      let store = ObjectIdentifier(self)
      _cancellationCancellables.withValue { collection in
        for id in entry.cancelIDs { collection.remove(key: key, store: store, id: id) }
      }
    }
    self.runningEffects.finish(key)
  }

  private func cancel(_ target: _CancelTarget) {
    let ids: [_CancelID]
    switch target {
    case let .id(id):
      ids = self.cancellables.keys.filter(target.matches)
      // NB: And what `withTaskCancellation(id:)` runs under the identifier outside any store.
      _cancellationCancellables.withValue { $0.cancelOutsideStores(id: id) }
    case .navigation:
      ids = self.cancellables.keys.filter(target.matches)
    }
    for id in ids {
      for key in self.cancellables.removeValue(forKey: id) ?? [] {
        self.effectTasks[key]?.task.cancel()
        // NB: A cancelled effect is over the moment it is cancelled, as in TCA: it sends nothing
        // more (`Send` drops what a cancelled task sends), whenever its task gets to return.
        self.effectTaskDidFinish(key)
      }
    }
  }
}

/// The core of a scoped store: it reads its state from its parent's and embeds its actions into
/// its parent's.
@MainActor
final class _ScopedCore<ParentState, ParentAction, State, Action>: _StoreCore {
  let parent: any _StoreCore<ParentState, ParentAction>
  let toState: (ParentState) -> State
  let fromAction: (Action) -> ParentAction

  /// - Parameter toState: A key path (`{ $0[keyPath: path] }`) or a function of the parent's
  ///   state: called on every read, never cached.
  init(
    parent: any _StoreCore<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
  }

  var state: State {
    self.toState(self.parent.state)
  }

  func send(_ action: Action, origin: ActionOrigin, site: CallSite?, tasks: _TaskList) {
    self.parent.send(self.fromAction(action), origin: origin, site: site, tasks: tasks)
  }

  func addObserver(_ observer: @escaping @MainActor (State) -> Void) -> Int {
    let toState = self.toState
    return self.parent.addObserver { observer(toState($0)) }
  }

  func removeObserver(_ id: Int) {
    self.parent.removeObserver(id)
  }

  func addActionObserver(_ observer: @escaping @MainActor () -> Void) -> Int {
    // NB: A scope by a function runs it only when its state is read, as in TCA.
    self.parent.addActionObserver(observer)
  }

  var effectTasksInFlight: [Int: Task<Void, Never>] {
    self.parent.effectTasksInFlight
  }

  var isProcessingActions: Bool {
    self.parent.isProcessingActions
  }
}
