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

  init(core: any _StoreCore<State, Action>) {
    self.core = core
    Logger.shared.log("\(storeTypeName(of: Self.self)).init")
    // NB: Observers of the store (Observation) are told after each action, as a whole.
    _ = core.addObserver { [weak self] _ in
      guard let self else { return }
      self.observationRegistrar.withMutation(of: self, keyPath: self.stateKeyPath) {}
    }
  }

  // NB: Isolated, as the logger is: a store let go on the main actor logs at once, one let go
  // elsewhere when the main actor next runs.
  isolated deinit {
    Logger.shared.log("\(storeTypeName(of: Store.self)).deinit")
  }

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
  /// let childStore = store.scope(state: \.child, action: \.child)
  /// ```
  ///
  /// - Parameters:
  ///   - state: A key path from `State` to `ChildState`.
  ///   - action: A case key path from `Action` to `ChildAction`.
  /// - Returns: A new store with its domain (state and action) transformed.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let embed = AnyCasePath(action)
    return Store<ChildState, ChildAction>(
      core: _ScopedCore(parent: self.core, toState: state, fromAction: embed.embed)
    )
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
