// NB: Over 400 lines on purpose: every failure message of the test store, each asserted whole,
// over one small feature.

import ComposableArchitecture
import Foundation
import TestSupport
import Testing

/// A small feature for exercising the test store: a count, a delayed echo through the clock, and
/// a long-living timer.
private struct Feature: Reducer {
  struct State: Equatable {
    var count = 0
    var echoes: [Int] = []
  }
  @CasePathable
  enum Action: Equatable {
    case decrement
    case echo(Int)
    case echoed(Int)
    case increment
    case noop
    case startTimer
    case tick
    case twice
  }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .decrement:
      state.count -= 1
      return .none
    case let .echo(value):
      return .run { send in
        try await self.clock.sleep(for: .seconds(1))
        await send(.echoed(value))
      }
    case let .echoed(value):
      state.echoes.append(value)
      return .none
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .startTimer:
      return .run { send in
        while true {
          try await self.clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.count += 1
      return .none
    case .twice:
      return .merge(.send(.increment), .send(.increment))
    }
  }
}

@MainActor
@Suite struct TestStoreTests {
  private func makeStore(clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Feature> {
    TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // MARK: - Passing

  @Test func exhaustiveFlowWithEffectsPasses() async {
    let clock = TestClock()
    let store = self.makeStore(clock: clock)
    await store.send(.increment) {
      $0.count = 1
    }
    await store.send(.echo(7))
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(.echoed(7)) {
      $0.echoes = [7]
    }
    await store.send(.echo(8))
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(\.echoed) {
      $0.echoes = [7, 8]
    }
    await store.send(.echo(9))
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(\.echoed, 9) {
      $0.echoes = [7, 8, 9]
    }
    await store.send(.twice)
    await store.receive({ $0 == .increment }) {
      $0.count = 2
    }
    await store.receive(.increment) {
      $0.count = 3
    }
    #expect(store.state == Feature.State(count: 3, echoes: [7, 8, 9]))
  }

  @Test func taskCancelEndsLongLivingEffects() async {
    let clock = TestClock()
    let store = self.makeStore(clock: clock)
    let task = await store.send(.startTimer)
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 2 }
    await task.cancel()
  }

  @Test func skipReceivedActionsAndInFlightEffects() async {
    let store = self.makeStore()
    await store.send(.twice)
    await store.skipReceivedActions()
    #expect(store.state.count == 2)
    await store.send(.startTimer)
    await store.skipInFlightEffects()
  }

  @Test func aSkippedEffectGoesOnAndWhatItSendsIsStillReceived() async {
    let clock = TestClock()
    let store = self.makeStore(clock: clock)
    await store.send(.echo(7))
    // NB: Shown as a skipped assertion (a known issue): the effect is not asserted on, and
    // runs on.
    await store.skipInFlightEffects()
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(.echoed(7)) { $0.echoes = [7] }
  }

  @Test func receiveWaitsForWhatASkippedEffectSendsLater() async {
    let gate = Gate()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { state, isStart in
        guard isStart else {
          state += 1
          return .none
        }
        return .run { send in
          await gate.wait()
          await send(false)
        }
      }
    }
    await store.send(true)
    await store.skipInFlightEffects()
    // The effect sends only after `receive` has begun waiting: it must wait for it, though no
    // effect it asserts on is in flight.
    Task {
      try? await Task.sleep(for: .milliseconds(100))
      gate.open()
    }
    await store.receive(false) { $0 = 1 }
  }

  @Test func aNonExhaustiveStoreHidingSkipsSaysNothingOfASkippedEffect() async {
    let store = self.makeStore()
    store.exhaustivity = .off(showSkippedAssertions: false)
    await store.send(.startTimer)
    await store.skipInFlightEffects()
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let store = self.makeStore(clock: clock)
    store.exhaustivity = .off
    await store.send(.increment)
    await store.send(.echo(1))
    await store.send(.twice)
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(.echoed(1)) {
      $0.echoes = [1]
    }
    #expect(store.state.count == 3)
    await store.send(.startTimer)
  }

  @Test func dependenciesCanChangeBetweenSteps() async {
    struct Stamp: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: Void) -> Effect<Void> {
        state.append(self.uuid())
        return .none
      }
    }
    let store = TestStore(initialState: [UUID]()) {
      Stamp()
    } withDependencies: {
      $0.uuid = .constant(UUID(1))
    }
    await store.send(()) { $0 = [UUID(1)] }
    store.dependencies.uuid = .constant(UUID(2))
    await store.send(()) { $0 = [UUID(1), UUID(2)] }
  }

  // MARK: - Failing

  @Test func stateChangeThatDoesNotMatchExpectation() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.increment) {
        $0.count = 2
      }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation.

            \u{2007} Feature.State(
            −   count: 2,
            +   count: 1,
            \u{2007}   echoes: []
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ]
    )
  }

  @Test func unexpectedStateChange() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.increment)
    }
    #expect(
      issues == [
        """
        State was not expected to change, but a change occurred.

            \u{2007} Feature.State(
            −   count: 0,
            +   count: 1,
            \u{2007}   echoes: []
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ]
    )
  }

  @Test func assertionClosureWithoutChange() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.noop) {
        $0.count = 0
      }
    }
    #expect(
      issues == [
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state \
        is expected, omit the trailing closure.
        """
      ]
    )
  }

  @Test func receivedUnexpectedAction() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.twice)
      await store.receive(.decrement) {
        $0.count = 1
      }
      await store.receive(.increment) {
        $0.count = 2
      }
    }
    #expect(
      issues == [
        """
        Received unexpected action:

            − Feature.Action.decrement
            + Feature.Action.increment

        (Expected: −, Received: +)
        """
      ]
    )
  }

  @Test func receivedNothingBeforeTimeout() async {
    let issues = await recordedIssues {
      let clock = TestClock()
      let store = self.makeStore(clock: clock)
      await store.send(.echo(1))
      // NB: The timeout is the subject: the effect waits on a test clock that never advances, so
      // nothing arrives however long the wait.
      await store.receive(.echoed(1), timeout: .milliseconds(50)) {
        $0.echoes = [1]
      }
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        """
        Expected to receive an action, but received none after 0.05 seconds.

        There are effects in-flight. If the effect that delivers this action uses a \
        clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
        enough time for it to perform the effect. If you are using a test clock/scheduler, \
        advance it so that the effects may complete, or consider using an immediate \
        clock/scheduler to immediately perform the effect instead.

        If you are not yet using a clock/scheduler, or can not use a clock/scheduler, try \
        increasing the duration of this assertion's "timeout".
        """,
        """
        Expected to receive the following action, but didn't:

          Feature.Action.echoed(1)
        """,
      ]
    )
  }

  @Test func receivedNothingAndNoEffectRunning() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.receive(\.tick)
    }
    #expect(
      issues == [
        "Expected to receive an action matching case path, but didn't get one."
      ]
    )
  }

  @Test func mustHandleReceivedActionsBeforeSending() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.twice)
      // NB: The actions stay received, to be asserted after this one's, each with the state it
      // led to; the decrement is asserted from the state last asserted (0), and is 2 − 1.
      await store.send(.decrement) {
        $0.count = 1
      }
      await store.receive(.increment)
      await store.receive(.increment) { $0.count = 2 }
    }
    #expect(
      issues == [
        """
        Must handle 2 received actions before sending an action.

        Unhandled actions: [
          [0]: .increment,
          [1]: .increment
        ]
        """
      ]
    )
  }

  @Test func unreceivedActionsAtTheEndOfTheTest() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.twice)
    }
    #expect(
      issues == [
        """
        The store received 2 unexpected actions.

          Unhandled actions:
            .increment
            .increment

        To fix, explicitly assert against these actions using "store.receive", skip these \
        actions by performing "await store.skipReceivedActions()", or consider using a \
        non-exhaustive test store: "store.exhaustivity = .off".
        """
      ]
    )
  }

  @Test func effectStillRunningAtTheEndOfTheTest() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.startTimer)
    }
    #expect(
      issues == [
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
        """
      ]
    )
  }

  @Test func finishTimesOutWhileEffectsRun() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.send(.startTimer)
      // NB: The timeout is the subject: the timer never ends.
      await store.finish(timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        """
        Expected effects to finish, but there are still effects in-flight after 0.05 seconds.

        There are effects in-flight. If the effect that delivers this action uses a \
        clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
        enough time for it to perform the effect. If you are using a test clock/scheduler, \
        advance it so that the effects may complete, or consider using an immediate \
        clock/scheduler to immediately perform the effect instead.

        If you are not yet using a clock/scheduler, or can not use a clock/scheduler, try \
        increasing the duration of this assertion's "timeout".
        """
      ]
    )
  }

  @Test func nonExhaustiveStillChecksWhatIsAsserted() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      store.exhaustivity = .off
      await store.send(.twice)
      await store.send(.increment) {
        $0.count = 10
      }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation.

            \u{2007} Feature.State(
            −   count: 10,
            +   count: 3,
            \u{2007}   echoes: []
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ]
    )
  }

  @Test func nothingToSkip() async {
    let issues = await recordedIssues {
      let store = self.makeStore()
      await store.skipReceivedActions()
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        "There were no received actions to skip.",
        "There were no in-flight effects to skip.",
      ]
    )
  }
}

@MainActor
@Suite struct TestStoreReceiveMismatchTests {
  @Test func receivedActionOfAnotherCase() async {
    let issues = await recordedIssues {
      let store = TestStore(initialState: Feature.State()) {
        Feature()
      }
      await store.send(.twice)
      await store.receive(\.tick) {
        $0.count = 1
      }
      await store.receive(.increment) {
        $0.count = 2
      }
    }
    #expect(
      issues == [
        """
        Received unexpected action:

          Feature.Action.increment
        """
      ]
    )
  }

  @Test func receivedAnotherAssociatedValue() async {
    let issues = await recordedIssues {
      let clock = TestClock()
      let store = TestStore(initialState: Feature.State()) {
        Feature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.echo(1))
      _ = await clock.waitForSuspension()
      await clock.advance(by: .seconds(1))
      await store.receive(\.echoed, 2) {
        $0.echoes = [1]
      }
    }
    #expect(
      issues == [
        """
        Received unexpected action:

          − Feature.Action.echoed(2)
          + Feature.Action.echoed(1)

        (Expected: −, Actual: +)
        """
      ]
    )
  }

  @Test func showSkippedAssertionsDoesNotFailTheTest() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.twice)
    await store.receive(.increment) {
      $0.count = 1
    }
    // The second increment is skipped, and shown as a known issue; so is the unasserted change.
    await store.send(.decrement)
    #expect(store.state.count == 1)
  }
}

/// A feature whose effect feeds an action back a moment after it starts.
private struct Ping: Reducer {
  struct State: Equatable {}
  enum Action: Equatable {
    case ping
    case pong
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping:
      return .run { send in
        // NB: Real time, so the store goes away while the effect sleeps; the test below accepts
        // either failure a loaded machine may give.
        try await Task.sleep(for: .milliseconds(20))
        await send(.pong)
      }
    case .pong:
      return .none
    }
  }
}

/// The end of a test whose test store is released off the main actor, as in a test that is not
/// isolated to it (an XCTest method, say).
@Suite struct TestStoreEndOfTestTests {
  /// The action an effect feeds back while the test store goes away is counted, or the effect is
  /// reported still running: the test fails either way, where it once passed.
  @Test func anActionFedBackWhileTheStoreGoesAwayFailsTheTest() async {
    let messages = LockIsolated<[String]>([])
    await withKnownIssue {
      let store = await TestStore(initialState: Ping.State()) { Ping() }
      await store.send(.ping)
      // NB: The store goes away here, while the effect sleeps; its `pong` arrives as the test
      // store's end-of-test check waits for the effect.
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    let unexpected = """
      The store received 1 unexpected action.

        Unhandled actions:
          .pong
      """
    let stillRunning = """
      An effect returned for this action is still running. It must complete before the end of \
      the test.
      """
    #expect(!messages.value.isEmpty)
    for message in messages.value {
      #expect(message.hasPrefix(unexpected) || message.hasPrefix(stillRunning), "\(message)")
    }
  }
}
