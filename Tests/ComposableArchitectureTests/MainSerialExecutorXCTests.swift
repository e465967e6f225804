import ComposableArchitecture
import XCTest

/// A test store in an XCTest test serializes async work on the main thread, as TCA's does by
/// default: a timer driven by a test clock delivers every tick an advance passes, and the setting
/// the store found comes back when it goes. XCTest, whose tests run one at a time: the setting is
/// the process's.
@MainActor
final class MainSerialExecutorXCTests: XCTestCase {
  @Reducer
  struct Ticker {
    struct State: Equatable { var ticks = 0 }
    enum Action: Equatable { case start, stop, tick }
    enum CancelID { case timer }
    @Dependency(\.continuousClock) var clock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .start:
          return .run { send in
            for await _ in self.clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
          .cancellable(id: CancelID.timer)
        case .stop:
          return .cancel(id: CancelID.timer)
        case .tick:
          state.ticks += 1
          return .none
        }
      }
    }
  }

  func testTheSettingHoldsWhileTheStoreLivesAndEveryTickArrives() async {
    XCTAssertFalse(uncheckedUseMainSerialExecutor)
    do {
      let clock = TestClock()
      let store = TestStore(initialState: Ticker.State()) {
        Ticker()
      } withDependencies: {
        $0.continuousClock = clock
      }
      XCTAssertTrue(store.useMainSerialExecutor)
      XCTAssertTrue(uncheckedUseMainSerialExecutor)
      await store.send(.start)
      for round in 1...5 {
        await clock.advance(by: .seconds(3))
        await store.receive(.tick) { $0.ticks = 3 * round - 2 }
        await store.receive(.tick) { $0.ticks = 3 * round - 1 }
        await store.receive(.tick) { $0.ticks = 3 * round }
      }
      await store.send(.stop)
    }
    XCTAssertFalse(uncheckedUseMainSerialExecutor)
  }

  func testEachStorePutsBackWhatItFoundWhileAnEarlierStoreLives() {
    let earlier = TestStore(initialState: Ticker.State()) { Ticker() }
    XCTAssertTrue(uncheckedUseMainSerialExecutor)
    uncheckedUseMainSerialExecutor = false
    do {
      let store = TestStore(initialState: Ticker.State()) { Ticker() }
      XCTAssertTrue(uncheckedUseMainSerialExecutor)
      _ = store
    }
    XCTAssertFalse(uncheckedUseMainSerialExecutor)
    do {
      let store = TestStore(initialState: Ticker.State()) { Ticker() }
      store.useMainSerialExecutor = false
      XCTAssertFalse(uncheckedUseMainSerialExecutor)
    }
    _ = earlier
  }
}
