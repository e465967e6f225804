@_spi(Internals) import ComposableArchitecture
import XCTest

/// A test store serializes async work on the main thread while it lives, as TCA's does, and puts
/// back the setting it found when it goes; stores that go out of order (tests in parallel) leave
/// it to those still alive. XCTest, whose tests run one at a time: the setting is the process's.
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

  func testAStoreTurnsItOnAndPutsBackWhatItFound() {
    for found in [false, true] {
      uncheckedUseMainSerialExecutor = found
      var store: TestStoreOf<Ticker>? = TestStore(initialState: Ticker.State()) { Ticker() }
      XCTAssertTrue(uncheckedUseMainSerialExecutor)
      XCTAssertTrue(store?.useMainSerialExecutor == true)
      store = nil
      XCTAssertEqual(uncheckedUseMainSerialExecutor, found)
    }
    uncheckedUseMainSerialExecutor = false
  }

  func testStoresGoingOutOfOrderLeaveItToThoseStillAlive() {
    uncheckedUseMainSerialExecutor = false
    let first = NSObject()
    let second = NSObject()
    _MainSerialExecutorHolds.acquire(first)
    _MainSerialExecutorHolds.acquire(second)
    _MainSerialExecutorHolds.release(first)
    XCTAssertTrue(uncheckedUseMainSerialExecutor, "the second still holds it")
    _MainSerialExecutorHolds.release(second)
    XCTAssertFalse(uncheckedUseMainSerialExecutor, "what the first found")
  }

  func testItCanBeTurnedOffForAStore() {
    uncheckedUseMainSerialExecutor = false
    let store = TestStore(initialState: Ticker.State()) { Ticker() }
    store.useMainSerialExecutor = false
    XCTAssertFalse(uncheckedUseMainSerialExecutor)
  }

  func testEveryTickOfATestClockArrives() async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.start)
    for round in 1...5 {
      await clock.advance(by: .seconds(3))
      await store.receive(.tick) { $0.ticks = 3 * round - 2 }
      await store.receive(.tick) { $0.ticks = 3 * round - 1 }
      await store.receive(.tick) { $0.ticks = 3 * round }
    }
    await store.send(.stop)
  }
}
