import ComposableArchitecture
import Foundation
import TestSupport
import Testing

/// A feature that throttles and debounces on a Combine scheduler (`mainQueue`), as TCA's
/// deprecated forms do.
@Reducer
private struct Tapper {
  struct State: Equatable {
    var count = 0
  }
  enum Action: Equatable {
    case debounced(Int)
    case response(Int)
    case tap(Int)
  }
  let id: String
  let latest: Bool
  @Dependency(\.mainQueue) var mainQueue

  @available(*, deprecated)
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .debounced(value):
        return .send(.response(value))
          .debounce(id: self.id, for: .seconds(1), scheduler: self.mainQueue)
      case let .response(value):
        state.count = value
        return .none
      case let .tap(value):
        return .send(.response(value))
          .throttle(id: self.id, for: .seconds(1), scheduler: self.mainQueue, latest: self.latest)
      }
    }
  }
}

/// The deprecated `throttle`/`debounce(…, scheduler:)`: each action reaches the store on the
/// scheduler's next turn (a test scheduler's advance), as a value `receive(on:)` it does, and
/// the throttle lets through the first at once and the newest (or the first) waiting one at the
/// end of the interval.
@MainActor
@Suite struct SchedulerTimingTests {
  @available(*, deprecated)
  fileprivate func store(
    latest: Bool, _ mainQueue: TestSchedulerOf<DispatchQueue>, id: String = #function
  ) -> TestStoreOf<Tapper> {
    TestStore(initialState: Tapper.State()) {
      Tapper(id: id, latest: latest)
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
  }

  /// The first tap, let through on the scheduler's next turn.
  @available(*, deprecated)
  fileprivate static func tapOnce(
    _ store: TestStoreOf<Tapper>, _ mainQueue: TestSchedulerOf<DispatchQueue>
  ) async {
    await store.send(.tap(1))
    await mainQueue.advance()
    await store.receive(.response(1)) { $0.count = 1 }
  }

  @available(*, deprecated)
  @Test func theFirstActionArrivesOnTheSchedulersNextTurn() async {
    let mainQueue = DispatchQueue.test
    let store = self.store(latest: true, mainQueue)
    await store.send(.tap(1))
    // Not before the scheduler has had a turn, however long the effect's task waits.
    await Task.megaYield()
    #expect(store.state.count == 0)
    await mainQueue.advance()
    await store.receive(.response(1)) { $0.count = 1 }
  }

  @available(*, deprecated)
  @Test func theNewestWaitingActionArrivesAtTheEndOfTheInterval() async {
    let mainQueue = DispatchQueue.test
    let store = self.store(latest: true, mainQueue)
    await Self.tapOnce(store, mainQueue)
    await store.send(.tap(2))
    await mainQueue.advance(by: .seconds(0.5))
    await store.send(.tap(3))
    await mainQueue.advance(by: .seconds(0.4))
    #expect(store.state.count == 1)
    await mainQueue.advance(by: .seconds(0.1))
    await store.receive(.response(3)) { $0.count = 3 }
  }

  @available(*, deprecated)
  @Test func theFirstWaitingActionArrivesWhenNotLatest() async {
    let mainQueue = DispatchQueue.test
    let store = self.store(latest: false, mainQueue)
    await Self.tapOnce(store, mainQueue)
    await store.send(.tap(2))
    await mainQueue.advance(by: .seconds(0.5))
    await store.send(.tap(3))
    await mainQueue.advance(by: .seconds(0.5))
    await store.receive(.response(2)) { $0.count = 2 }
  }

  @available(*, deprecated)
  @Test func anActionAfterTheIntervalArrivesAtOnce() async {
    let mainQueue = DispatchQueue.test
    let store = self.store(latest: true, mainQueue)
    await Self.tapOnce(store, mainQueue)
    await mainQueue.advance(by: .seconds(2))
    await store.send(.tap(2))
    await mainQueue.advance()
    await store.receive(.response(2)) { $0.count = 2 }
  }

  @available(*, deprecated)
  @Test func aDebouncedActionArrivesOnceTheSchedulerHasBeenQuiet() async {
    let mainQueue = DispatchQueue.test
    let store = self.store(latest: true, mainQueue)
    await store.send(.debounced(1))
    await mainQueue.advance(by: .seconds(0.5))
    await store.send(.debounced(2))
    await mainQueue.advance(by: .seconds(0.9))
    #expect(store.state.count == 0)
    await mainQueue.advance(by: .seconds(0.1))
    await store.receive(.response(2)) { $0.count = 2 }
  }
}
