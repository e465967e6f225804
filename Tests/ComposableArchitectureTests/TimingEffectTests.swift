import ComposableArchitecture
import TestSupport
import Testing

@Reducer
private struct Ticker {
  struct State: Equatable {
    var emitted: [Int] = []
  }
  enum Action: Equatable {
    case debounced(Int)
    case emitted(Int)
    case throttled(Int, latest: Bool)
  }
  enum CancelID { case debounce, throttle }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .debounced(value):
        return .send(.emitted(value))
          .debounce(id: CancelID.debounce, for: .seconds(1), clock: self.clock)
      case let .emitted(value):
        state.emitted.append(value)
        return .none
      case let .throttled(value, latest):
        return .send(.emitted(value))
          .throttle(id: CancelID.throttle, for: .seconds(1), clock: self.clock, latest: latest)
      }
    }
  }
}

@MainActor
@Suite struct TimingEffectTests {
  @Test func debounceRunsOnlyTheLastOfAQuickSuccession() async {
    let clock = CountingTestClock()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.debounced(1))
    #expect(await clock.waitForSleep(number: 1))
    await clock.advance(by: .milliseconds(900))
    await store.send(.debounced(2))
    #expect(await clock.waitForSleep(number: 2))
    await clock.advance(by: .milliseconds(900))
    await store.send(.debounced(3))
    #expect(await clock.waitForSleep(number: 3))
    await clock.advance(by: .seconds(1))
    await store.receive(.emitted(3)) { $0.emitted = [3] }
  }

  @Test func aDebouncedEffectIsTheSameShapeWhateverTheTime() {
    let clock = TestClock()
    let reducer = withDependencies {
      $0.continuousClock = clock
    } operation: {
      Ticker()
    }
    var state = Ticker.State()
    let first = reducer.reduce(into: &state, action: .debounced(1)).shape
    let second = reducer.reduce(into: &state, action: .debounced(2)).shape
    #expect(first == second)
    #expect(
      first.description.contains(
        "cancellable(CancelID.debounce, cancelInFlight, concatenate(run at"))
  }

  @Test func throttleLetsTheFirstThroughAndTheLatestAtTheEndOfTheInterval() async {
    let clock = CountingTestClock()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.throttled(1, latest: true))
    await store.receive(.emitted(1)) { $0.emitted = [1] }
    await store.send(.throttled(2, latest: true))
    #expect(await clock.waitForSleep(number: 1))
    await store.send(.throttled(3, latest: true))
    #expect(await clock.waitForSleep(number: 2, sleeping: 2))
    await clock.advance(by: .seconds(1))
    await store.receive(.emitted(3)) { $0.emitted = [1, 3] }
    await clock.advance(by: .seconds(2))
    await store.send(.throttled(4, latest: true))
    await store.receive(.emitted(4)) { $0.emitted = [1, 3, 4] }
  }

  @Test func throttleWithoutLatestKeepsTheFirstWaiting() async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    // Each store keeps its own intervals: the test above, with the same identifier, is not seen.
    await store.send(.throttled(1, latest: false))
    await store.receive(.emitted(1)) { $0.emitted = [1] }
    await store.send(.throttled(2, latest: false))
    #expect(await clock.waitForSuspension())
    // Dropped at once: its effect is over before the interval ends.
    await store.send(.throttled(3, latest: false)).finish()
    await clock.advance(by: .seconds(1))
    await store.receive(.emitted(2)) { $0.emitted = [1, 2] }
    await store.finish()
  }

  @Test func withExhaustivityRelaxesOnlyWhatItWraps() async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.withExhaustivity(.off) {
      await store.send(.emitted(1))
    }
    #expect(store.exhaustivity == .on)
    await withKnownIssue {
      await store.send(.emitted(2))
    } matching: { issue in
      issue.description.contains("State was not expected to change")
    }
  }
}
