// NB: Over 400 lines on purpose: one type's API (send, four ways to receive, finish, the skips,
// the end-of-test check) shares the store's private state, as TCA's TestStore.swift does; split
// across files, that state would have to be visible to the whole module.

@_spi(Internals) import CasePaths
import ConcurrencyExtras
import CustomDump
import Dependencies
import Foundation
import IssueReporting

/// A testable runtime for a reducer: it asserts, step by step, how state changes and which actions
/// effects feed back.
///
/// ```swift
/// @Test @MainActor
/// func basics() async {
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   } withDependencies: {
///     $0.numberFact.fetch = { "\($0) is a good number." }
///   }
///   await store.send(.incrementButtonTapped) {
///     $0.count = 1
///   }
///   await store.send(.factButtonTapped)
///   await store.receive(\.factResponse) {
///     $0.fact = "1 is a good number."
///   }
/// }
/// ```
///
/// By default the test store is exhaustive: every state change must be asserted, every action an
/// effect sends must be received, and every effect must have finished when the test store goes
/// away. Each failure is reported through IssueReporting, so it shows in Swift Testing and XCTest
/// alike, at the line of the call that failed.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// How strictly the store checks what happens; ``Exhaustivity/on`` by default.
  public var exhaustivity: Exhaustivity {
    get { self._exhaustivity }
    set { self._exhaustivity = newValue }
  }

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)`` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` wait by default.
  ///
  /// The wait counts the time in which tasks could run: while other work (other tests, on a
  /// loaded machine) keeps the main actor and the global executor busy, effects could not run
  /// either, and that time does not count.
  public var timeout: Duration

  /// Whether async work runs serially on the main thread while the store lives, so that effects
  /// driven by a test clock advance deterministically; the setting before it comes back when the
  /// store goes. On by default in an XCTest test, as in TCA, whose tests run one at a time; off by
  /// default in Swift Testing, whose tests run at the same time in one process.
  public var useMainSerialExecutor: Bool {
    get { uncheckedUseMainSerialExecutor }
    set {
      if newValue, self.mainSerialExecutorHold.value == nil {
        self.mainSerialExecutorHold.setValue(_MainSerialExecutorHolds.acquire())
      } else if !newValue {
        self.releaseMainSerialExecutor()
      }
    }
  }
  /// What the setting was when this store turned it on, while it holds it.
  nonisolated private let mainSerialExecutorHold = LockIsolated<Bool?>(nil)
  /// Whether the store's test runs alone (XCTest), rather than beside others (Swift Testing).
  nonisolated private let runsOneTestAtATime: Bool = {
    if case .xcTest = TestContext.current { return true }
    return false
  }()

  nonisolated private func releaseMainSerialExecutor() {
    // NB: Taken and cleared at once, so that a hold is let go only once.
    let hold = self.mainSerialExecutorHold.withValue { hold in
      defer { hold = nil }
      return hold
    }
    guard let before = hold else { return }
    _MainSerialExecutorHolds.release(
      restoring: before, oneTestAtATime: self.runsOneTestAtATime)
  }

  let core: any _RootStoreCore<State, Action>
  /// The shared values the reducers and effects changed since the last assertion.
  private let sharedChanges = _SharedChangeTracker()
  /// Whether the feature dismissed itself (see ``isDismissed``), and how that ends its effects.
  let dismissal = _TestStoreDismissal()
  private let runningEffects: _RunningEffects
  private let location: _SourceLocation
  var baseline: State
  private var lastSentState: State?
  // NB: These are read by `deinit`, which is not isolated: an isolated deinit runs without the
  // task-locals of the code that released the store, so the end-of-test failures it reports would
  // not reach the running test. Everything else touches `_exhaustivity` on the main actor only,
  // and a deinit runs once nothing else references the store, so the unchecked access is
  // exclusive; the log has a lock, since the core writes to it while the deinit waits.
  nonisolated(unsafe) private var _exhaustivity: Exhaustivity = .on
  nonisolated private let log = _ReceivedLog<Action, State>()
  nonisolated private var received: [(action: Action, state: State)] {
    get { self.log.received }
    set { self.log.received = newValue }
  }
  nonisolated private var provenance: [UInt64: (action: Action, location: _SourceLocation)] {
    self.log.provenance
  }
  private var currentSendLocation: _SourceLocation?
  /// The store's next stack identity before the action a `send` asserts, or `nil`.
  private var assertionStackElementID: StackElementID?
  /// The recording of the run, when the store records (see ``TestStoreRecording``).
  nonisolated private let recording: (any _TestStoreRecordingHandle)?

  /// Creates a test store with an initial state and a reducer powering its runtime.
  ///
  /// - Parameters:
  ///   - initialState: The state the feature starts in.
  ///   - reducer: The reducer that powers the runtime of the test store.
  ///   - prepareDependencies: A closure that can be used to override dependencies that will be
  ///     accessed during the test.
  ///   - recording: Whether and where the store records its run; by default as the environment
  ///     says, keeping the run of a test that fails (see ``TestStoreRecording``).
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    recording: TestStoreRecording? = nil,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    timeout: Duration = .seconds(1),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    // NB: Prepared inside the library's `withDependencies`, where reading a dependency in order
    // to change it (`$0.date.now = …`) is not an access that test contexts report.
    let sharedChanges = self.sharedChanges
    let dismissal = self.dismissal
    let dependencies = withDependencies {
      // NB: The feature under test dismissing itself is what `isDismissed` tells, and it ends
      // the feature's effects as a dismissed presentation's end; a test may still replace
      // `dismiss` in `prepareDependencies`.
      $0.dismiss = DismissEffect { @MainActor in
        if let dismiss = PresentationDismissal.current {
          dismiss()
        } else {
          dismissal.dismiss()
        }
      }
      prepareDependencies(&$0)
    } operation: {
      var dependencies = DependencyValues._current
      dependencies._sharedChangeTracker = sharedChanges
      return dependencies
    }
    let (initialState, reducer) = withDependencies {
      $0 = dependencies
    } operation: {
      (initialState(), reducer())
    }
    let mode = recording ?? .fromEnvironment
    let recorded =
      mode.isOn
      ? _TestStoreRecorders.maker?._record(
        reducer, initialState: initialState, dependencies: dependencies, recording: mode,
        testName: _TestStoreRecorders.testName, filePath: "\(filePath)", line: line)
      : nil
    self.recording = recorded?.recording
    let core: any _RootStoreCore<State, Action> =
      if let recorded {
        _RootCore(
          initialState: initialState, reducer: _FunctionReducer(body: recorded.reduce),
          dependencies: dependencies, prepare: false)
      } else {
        _RootCore(
          initialState: initialState, reducer: reducer, dependencies: dependencies,
          prepare: false)
      }
    self.core = core
    self.runningEffects = core.runningEffects
    dismissal.cancelEffects = { [weak core] in core?.cancelAllEffects() }
    self.baseline = initialState
    self.timeout = timeout
    self.location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    // NB: An action an effect feeds back goes straight to the log: while the test store goes
    // away, `self` is already nil, and the end-of-test check still waits for such actions.
    let log = self.log
    let location = self.location
    core.didReduce = { [weak self] action, context, state in
      switch context.origin {
      case .send:
        self?.didSend(action: action, context: context, state: state)
      case let .effect(parent):
        log.recordFedBack(action, id: context.id, parent: parent, state: state, fallback: location)
      }
    }
    // NB: XCTest runs one test at a time, so the process-wide setting is the test's, as TCA's
    // test store takes it by default; Swift Testing runs tests at once, and a test asks.
    if self.runsOneTestAtATime {
      self.useMainSerialExecutor = true
    }
  }

  /// ``init(initialState:recording:reducer:withDependencies:timeout:fileID:filePath:line:column:)``
  /// for a trailing closure that returns the reducer, as TCA's takes it: the state's type is then
  /// found from the reducer's, so that `TestStore(initialState: .init()) { Feature() }` compiles.
  @_disfavoredOverload
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    recording: TestStoreRecording? = nil,
    _ reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    timeout: Duration = .seconds(1),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initialState: initialState(), recording: recording, reducer: { reducer() },
      withDependencies: prepareDependencies, timeout: timeout, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  deinit {
    self.releaseMainSerialExecutor()
    self.completed()
    if let failure = self.recording?.finish() {
      _reportTestFailure(
        failure, fileID: self.location.fileID, filePath: self.location.filePath,
        line: self.location.line, column: self.location.column)
    }
  }

  /// The current state, as of the last assertion.
  ///
  /// While effects are running the store's live state may be ahead of it: this is the state the
  /// next assertion starts from.
  public var state: State {
    self.baseline
  }

  /// The dependencies the reducer and its effects use. Mutate them between steps to change what
  /// later actions see.
  public var dependencies: DependencyValues {
    get { self.core.dependencies }
    set { self.core.dependencies = newValue }
  }

  // MARK: - Sending

  /// Sends an action to the store and asserts how it changes state.
  ///
  /// ```swift
  /// await store.send(.incrementButtonTapped) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - action: An action.
  ///   - updateStateToExpectedResult: A closure that asserts how state changed by mutating the
  ///     state before the action into the expected state after it. Omit it when the action must
  ///     not change state.
  /// - Returns: A ``TestStoreTask`` for the effects the action started.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !self.isDismissed else {
      self.report("Can't send action to dismissed test store.", at: location)
      return TestStoreTask(rawValue: nil, timeout: self.timeout)
    }
    if !self.received.isEmpty {
      // NB: An exhaustive store keeps them, to be received after this action's own.
      self.reportUnlessSkipped(
        """
        Must handle \(self.received.count) received \
        action\(self.received.count == 1 ? "" : "s") before sending an action.

        Unhandled actions: \(String(customDumping: self.received.map(\.action)))
        """,
        at: location
      )
      if case let .off(showSkippedAssertions) = self.exhaustivity {
        self.skipReceived(showSkippedAssertions: showSkippedAssertions, at: location)
      }
    }
    let stateBefore = self.baseline
    let tasks = _TaskList()
    self.lastSentState = nil
    self.currentSendLocation = location
    // NB: The assertion pushes screens with the identities the action's own pushes took, as
    // TCA's does: from the store's next identity before the action.
    let generator = self.core.dependencies.stackElementID
    self.assertionStackElementID = generator.canPeek ? generator.peek() : nil
    defer { self.assertionStackElementID = nil }
    self.core.send(
      action, origin: .send, site: CallSite(fileID: fileID, line: line), tasks: tasks)
    self.currentSendLocation = nil
    let stateAfter = self.lastSentState ?? self.core.state
    // NB: As TCA's: inside the assertion, `store.state` is still the state before the action.
    self.assertState(
      from: stateBefore, to: stateAfter, updateStateToExpectedResult, at: location
    )
    self.baseline = stateAfter
    await Task.megaYield()
    return TestStoreTask(rawValue: tasks.isEmpty ? nil : tasks.waiter(), timeout: self.timeout)
  }

  // MARK: - Receiving

  /// Asserts that the next action an effect fed back is `expectedAction`, and how it changed
  /// state.
  ///
  /// - Parameters:
  ///   - expectedAction: The action the store is expected to receive.
  ///   - timeout: How long to wait for it; ``timeout`` by default.
  ///   - updateStateToExpectedResult: A closure that asserts how state changed.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await self.receive(
      matching: { $0 == expectedAction },
      expected: """
        the following action, but didn't:

        \(String(customDumping: expectedAction).indent(by: 2))
        """,
      mismatch: { received in
        let difference =
          diff(expectedAction, received, format: .proportional)
          .map { "\($0.indent(by: 4))\n\n(Expected: −, Received: +)" }
            ?? """
            Expected:
            \(String(customDumping: expectedAction).indent(by: 2))

            Received:
            \(String(customDumping: received).indent(by: 2))
            """
        return "Received unexpected action:\n\n\(difference)"
      },
      timeout: timeout,
      updateStateToExpectedResult,
      at: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that the next action an effect fed back is in the case of `actionCase`, and how it
  /// changed state.
  ///
  /// ```swift
  /// await store.receive(\.factResponse) {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path to the expected action's case.
  ///   - timeout: How long to wait for it; ``timeout`` by default.
  ///   - updateStateToExpectedResult: A closure that asserts how state changed.
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await self.receive(
      matching: { casePath.extract(from: $0) != nil },
      expected: "an action matching case path, but didn't get one.",
      mismatch: { Self.otherCaseMessage(received: $0) },
      timeout: timeout,
      updateStateToExpectedResult,
      at: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that the next action an effect fed back is in the case of `actionCase` with the given
  /// associated value, and how it changed state.
  ///
  /// - Parameters:
  ///   - actionCase: A case key path to the expected action's case.
  ///   - expectedValue: The expected associated value.
  ///   - timeout: How long to wait for it; ``timeout`` by default.
  ///   - updateStateToExpectedResult: A closure that asserts how state changed.
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ expectedValue: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await self.receive(
      matching: { casePath.extract(from: $0) == expectedValue },
      expected: "an action matching case path, but didn't get one.",
      mismatch: { received in
        guard let receivedValue = casePath.extract(from: received) else {
          return Self.otherCaseMessage(received: received)
        }
        _ = receivedValue
        let difference =
          diff(casePath.embed(expectedValue), received, format: .proportional)
          .map { "\($0.indent(by: 2))\n\n(Expected: −, Actual: +)" }
          ?? String(customDumping: received).indent(by: 2)
        return "Received unexpected action:\n\n\(difference)"
      },
      timeout: timeout,
      updateStateToExpectedResult,
      at: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that the next action an effect fed back satisfies a predicate, and how it changed
  /// state.
  ///
  /// - Parameters:
  ///   - isMatching: A closure that returns whether an action is the expected one.
  ///   - timeout: How long to wait for it; ``timeout`` by default.
  ///   - updateStateToExpectedResult: A closure that asserts how state changed.
  @_disfavoredOverload
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receive(
      matching: isMatching,
      expected: "an action matching predicate, but didn't get one.",
      mismatch: { received in
        "Received unexpected action:\n\n\(String(customDumping: received).indent(by: 2))"
      },
      timeout: timeout,
      updateStateToExpectedResult,
      at: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private func receive(
    matching isMatching: (Action) -> Bool,
    expected: String,
    mismatch: (Action) -> String,
    timeout: Duration?,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: _SourceLocation
  ) async {
    let timeout = timeout ?? self.timeout
    let isExhaustive = self.exhaustivity == .on
    func isReady() -> Bool {
      isExhaustive ? !self.received.isEmpty : self.received.contains { isMatching($0.action) }
    }
    // NB: Skipped effects run on, and may still send what is awaited.
    let didReceive = await _poll(timeout: timeout) {
      isReady() || self.runningEffects.noneRunning
    }
    guard isReady() else {
      if !didReceive {
        let suggestion =
          timeout != self.timeout
          ? #"try increasing the duration of this assertion's "timeout""#
          : #"configure this assertion with an explicit "timeout""#
        self.report(
          """
          Expected to receive \(isExhaustive ? "an action" : "a matching action"), but received \
          none\(timeout > .zero ? " after \(timeout)" : "").

          There are effects in-flight. If the effect that delivers this action uses a \
          clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you \
          wait enough time for it to perform the effect. If you are using a test \
          clock/scheduler, advance it so that the effects may complete, or consider using an \
          immediate clock/scheduler to immediately perform the effect instead.

          If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
          \(suggestion).
          """,
          at: location
        )
      }
      self.report("Expected to receive \(expected)", at: location)
      return
    }
    let state: State
    switch self.exhaustivity {
    case .on:
      let action: Action
      (action, state) = self.received.removeFirst()
      if !isMatching(action) {
        // NB: Only the action is wrong: the state it led to is not asserted against the
        // expectation for another one.
        self.report(mismatch(action), at: location)
        self.baseline = state
        return
      }
    case .off:
      guard let index = self.received.firstIndex(where: { isMatching($0.action) }) else { return }
      if index > 0 {
        let skipped = self.received[..<index].map(\.action)
        self.reportUnlessSkipped(
          """
          \(index) received action\(index == 1 ? " was" : "s were") skipped.

          \(String(customDumping: skipped))
          """,
          at: location
        )
      }
      state = self.received[index].state
      if index > 0 { self.baseline = self.received[index - 1].state }
      self.received.removeFirst(index + 1)
    }
    let stateBefore = self.baseline
    self.assertState(from: stateBefore, to: state, updateStateToExpectedResult, at: location)
    self.baseline = state
    await Task.megaYield()
  }

  // MARK: - Finishing

  /// Waits for every effect in flight to finish, and reports an issue if some have not after
  /// `timeout`.
  ///
  /// - Parameter timeout: How long to wait; ``timeout`` by default.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if let state = self.assertNoReceivedActions(at: location) { self.baseline = state }
    let explicitTimeout = timeout != nil && timeout != self.timeout
    let timeout = timeout ?? self.timeout
    let didFinish = await _poll(timeout: timeout) { self.runningEffects.isEmpty }
    guard !didFinish else { return }
    self.reportUnlessSkipped(
      """
      Expected effects to finish, but there are still effects in-flight\
      \(timeout > .zero ? " after \(timeout)" : "").

      There are effects in-flight. If the effect that delivers this action uses a \
      clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
      enough time for it to perform the effect. If you are using a test clock/scheduler, advance \
      it so that the effects may complete, or consider using an immediate clock/scheduler to \
      immediately perform the effect instead.

      If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
      \(explicitTimeout
        ? #"try increasing the duration of this assertion's "timeout""#
        : #"configure this assertion with an explicit "timeout""#).
      """,
      at: location
    )
  }

  /// Clears the queue of received actions, accepting the state they led to.
  ///
  /// - Parameter strict: Whether to report an issue when there is nothing to skip.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await Task.megaYield()
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !self.received.isEmpty else {
      if strict {
        self.report("There were no received actions to skip.", at: location)
      }
      return
    }
    // NB: Skipping is not a failure, even of an exhaustive store: it shows what it skipped.
    self.skipReceived(showSkippedAssertions: true, at: location)
  }

  /// Stops asserting on the effects in flight, so the test can end without waiting for them.
  ///
  /// The effects go on running, as in TCA: an action one sends later is still received, and
  /// can be asserted. They are cancelled when the store goes. The skip is shown as skipped
  /// assertions are, unless the store is non-exhaustive and hides them.
  ///
  /// - Parameter strict: Whether to report an issue when there is nothing to skip.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await Task.megaYield()
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !self.runningEffects.isEmpty else {
      if strict {
        self.report("There were no in-flight effects to skip.", at: location)
      }
      return
    }
    let count = self.runningEffects.count
    let actions = self.runningEffects.parents.sorted().compactMap { self.provenance[$0]?.action }
    self.runningEffects.forgetAll()
    if self.exhaustivity != .off(showSkippedAssertions: false) {
      let origins =
        actions.count == 1
        ? String(customDumping: actions[0]) : String(customDumping: actions)
      self.reportSkipped(
        """
        \(count) in-flight effect\(count == 1 ? " was" : "s were") skipped, originating from:

        \(origins)
        """,
        at: location)
    }
  }

  // MARK: - Internals

  private func didSend(action: Action, context: ActionContext, state: State) {
    self.lastSentState = state
    self.log.provenance[context.id] = (action, self.currentSendLocation ?? self.location)
  }

  private func skipReceived(showSkippedAssertions: Bool, at location: _SourceLocation) {
    if showSkippedAssertions, !self.received.isEmpty {
      let actions =
        self.received.count == 1
        ? String(customDumping: self.received[0].action)
        : String(customDumping: self.received.map(\.action))
      self.reportSkipped(
        """
        \(self.received.count) received action\(self.received.count == 1 ? " was" : "s were") \
        skipped.

        \(actions)
        """,
        at: location
      )
    }
    if let last = self.received.last {
      self.baseline = last.state
    }
    self.received.removeAll()
  }

  /// Asserts how state changed: in the assertion, a shared value reads and writes what the test
  /// expects of it (see ``Shared``), and a shared value the reducers or effects changed must be
  /// asserted like any other part of state.
  func assertState(
    from stateBefore: State,
    to stateAfter: State,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    requiresChange: Bool = true,
    at location: _SourceLocation
  ) {
    defer { self.sharedChanges.clear() }
    let sharedChanged = self.sharedChanges.hasChanges
    // NB: Without exhaustivity, shared values changed and not asserted are accepted as they
    // are, like the rest of the state the test leaves unsaid.
    if self.exhaustivity != .on { self.sharedChanges.clear() }
    // NB: `XCTModify` in the assertion checks that it modified something only when the store is
    // exhaustive, as everything else the assertion says.
    _SharedAssertion.$tracker.withValue(self.sharedChanges) {
      XCTModifyLocals.$isExhaustive.withValue(self.exhaustivity == .on) {
        self.assertStateAsserting(
          from: stateBefore, to: stateAfter, updateStateToExpectedResult,
          sharedChanged: sharedChanged || !requiresChange, at: location)
      }
    }
  }

  private func assertStateAsserting(
    from stateBefore: State,
    to stateAfter: State,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    sharedChanged: Bool,
    at location: _SourceLocation
  ) {
    do {
      switch self.exhaustivity {
      case .on:
        var expected = stateBefore
        if let updateStateToExpectedResult {
          try self.runAssertion(updateStateToExpectedResult, on: &expected)
          // NB: A shared value the reducer changed is the same on both sides: its change is
          // the tracker's to say.
          if !sharedChanged, expected == stateBefore, stateAfter == stateBefore {
            self.report(
              """
              Expected state to change, but no change occurred.

              The trailing closure made no observable modifications to state. If no change to \
              state is expected, omit the trailing closure.
              """,
              at: location
            )
            return
          }
        }
        guard expected != stateAfter else { return }
        let heading =
          updateStateToExpectedResult != nil
          ? "A state change does not match expectation"
          : "State was not expected to change, but a change occurred"
        self.report("\(heading).\n\n\(self.difference(expected, stateAfter))", at: location)

      case let .off(showSkippedAssertions):
        var expected = stateAfter
        if let updateStateToExpectedResult {
          try self.runAssertion(updateStateToExpectedResult, on: &expected)
        }
        if expected != stateAfter {
          self.report(
            "A state change does not match expectation.\n\n"
              + self.difference(expected, stateAfter),
            at: location
          )
        } else if showSkippedAssertions {
          var exhaustiveExpected = stateBefore
          if let updateStateToExpectedResult {
            try self.runAssertion(updateStateToExpectedResult, on: &exhaustiveExpected)
          }
          if exhaustiveExpected != stateAfter {
            self.reportSkipped(
              "A state change does not match expectation.\n\n"
                + self.difference(exhaustiveExpected, stateAfter),
              at: location
            )
          }
        }
      }
    } catch {
      self.report("Threw error: \(error)", at: location)
    }
  }

  /// Runs an assertion closure on `state` with the store's dependencies and a copy of its stack
  /// identities, so that what it appends leaves the store's own untouched: after a `send`, a screen it pushes gets the
  /// identity the action's own push took; after a `receive`, the store's next one.
  private func runAssertion(
    _ assertion: (inout State) throws -> Void, on state: inout State
  ) throws {
    let dependencies = self.core.dependencies
    let generator = dependencies.stackElementID
    let next = self.assertionStackElementID ?? (generator.canPeek ? generator.peek() : nil)
    // NB: As TCA's: the assertion reads the store's dependencies (`@Dependency(\.date.now)`).
    try withDependencies {
      $0 = dependencies
      if let next { $0.stackElementID = .incrementing(from: next) }
    } operation: {
      try assertion(&state)
    }
  }

  /// The failure when a received action is not in the case a test expected.
  private static func otherCaseMessage(received: Action) -> String {
    "Received unexpected action:\n\n\(String(customDumping: received).indent(by: 2))"
  }

  /// The diff of the expected and the actual state. Where shared values changed or were
  /// asserted, the expected side is dumped as the test expects them and the actual side as they
  /// are, line by line.
  private func difference(_ expected: State, _ actual: State) -> String {
    guard self.sharedChanges.hasChanges else { return Self.difference(expected, actual) }
    let expectedText = String(customDumping: expected)
    let actualText = _SharedAssertion.$tracker.withValue(nil) { String(customDumping: actual) }
    return _lineDifference(expectedText, actualText).map {
      "\($0.indent(by: 4))\n\n(Expected: −, Actual: +)"
    } ?? Self.difference(expected, actual)
  }

  private static func difference(_ expected: State, _ actual: State) -> String {
    diff(expected, actual, format: .proportional)
      .map { "\($0.indent(by: 4))\n\n(Expected: −, Actual: +)" }
        ?? """
        Expected:
        \(String(customDumping: expected).indent(by: 2))

        Actual:
        \(String(customDumping: actual).indent(by: 2))
        """
  }

  nonisolated private func report(
    expected: Bool = false, _ message: String, at location: _SourceLocation
  ) {
    // NB: An expected failure (a skipped assertion shown) is not the test failing. The message
    // is the assertion's own, as TCA words it: tests compare failure messages whole, so where
    // the run is recorded is said beside it, not in it.
    if !expected { self.recording?.failed(message) }
    _reportTestFailure(
      message,
      fileID: location.fileID,
      filePath: location.filePath,
      line: location.line,
      column: location.column
    )
  }

  /// Checks, when the test store goes away, that nothing was left unasserted. Effects still
  /// running are cancelled when the store's core goes away with it.
  nonisolated private func completed() {
    guard self._exhaustivity == .on else { return }
    // NB: An effect that has sent its last action may still be returning, and one may be about
    // to feed an action back; give such effects a moment, which needs no main actor, before
    // calling them still running. The actions they feed back meanwhile count as unexpected. The
    // moment counts the time in which they could run, as `receive` does.
    var time = _RunnableTime()
    while !self.runningEffects.isEmpty, time.counted < .milliseconds(250) {
      usleep(1_000)
      _RunnableTime.passThroughGlobalExecutor(waitingAtMost: .milliseconds(20))
      time.endRound()
    }
    self.assertNoReceivedActions(at: self.location)
    for id in self.runningEffects.parents.sorted() {
      guard let (_, location) = self.provenance[id] else { continue }
      self.report(
        """
        An effect returned for this action is still running. It must complete before the end of \
        the test.

        To fix, inspect any effects the reducer returns for this action and ensure that all of \
        them complete by the end of the test. There are a few reasons why an effect may not have \
        completed:

        If using async/await in your effect, it may need a little bit of time to properly \
        finish. To fix you can simply perform "await store.finish()" at the end of your test.

        If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
        make sure that you wait enough time for it to perform the effect. If you are using a test \
        clock/scheduler, advance it so that the effects may complete, or consider using an \
        immediate clock/scheduler to immediately perform the effect instead.

        If you are returning a long-living effect (timers, notifications, subjects, etc.), then \
        make sure those effects are torn down by marking the effect ".cancellable" and returning a \
        corresponding cancellation effect ("Effect.cancel") from another action, or, if your \
        effect is driven by a Combine subject, send it a completion.

        If you do not wish to assert on these effects, perform "await \
        store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
        "store.exhaustivity = .off".
        """,
        at: location
      )
    }
  }

  /// Reports the actions effects fed back that the test did not receive, and forgets them: at
  /// `finish()`, and when the store goes away. Returns the state the last of them led to.
  @discardableResult
  nonisolated private func assertNoReceivedActions(at location: _SourceLocation) -> State? {
    guard !self.received.isEmpty else { return nil }
    let actions = self.received
      .map { "    " + debugCaseOutput($0.action, abbreviated: true) }
      .joined(separator: "\n")
    self.reportUnlessSkipped(
      """
      The store received \(self.received.count) unexpected \
      action\(self.received.count == 1 ? "" : "s").

        Unhandled actions:
      \(actions)

      To fix, explicitly assert against these actions using "store.receive", skip these actions \
      by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
      store: "store.exhaustivity = .off".
      """,
      at: location
    )
    let last = self.received.last?.state
    self.received.removeAll()
    return last
  }

  /// A failure as the store's exhaustivity has it: a failure when exhaustive, a skipped
  /// assertion shown when not and showing them, nothing otherwise.
  nonisolated private func reportUnlessSkipped(_ message: String, at location: _SourceLocation) {
    switch self._exhaustivity {
    case .on: self.report(message, at: location)
    case .off(showSkippedAssertions: true): self.reportSkipped(message, at: location)
    case .off(showSkippedAssertions: false): break
    }
  }

  /// An assertion a non-exhaustive store skipped, shown as an expected failure: a known issue in
  /// Swift Testing; in XCTest on Linux, which has no expected failures, a line on standard error.
  nonisolated private func reportSkipped(_ message: String, at location: _SourceLocation) {
    let text = "Skipped assertions.\n\n\(message)"
    #if !_runtime(_ObjC)
      if case .xcTest = TestContext.current {
        let line = "\(location.filePath):\(location.line): Expected failure: \(text)\n"
        FileHandle.standardError.write(Data(line.utf8))
        return
      }
    #endif
    withExpectedIssue {
      self.report(expected: true, text, at: location)
    }
  }
}

/// A convenience for the test store of a reducer: `TestStoreOf<Feature>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable
