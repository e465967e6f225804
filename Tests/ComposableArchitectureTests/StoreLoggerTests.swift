@_spi(Logging) import ComposableArchitecture
import Testing

/// What a store logs of its lifetime while `Logger.shared` is on, as TCA's tests read it. Other
/// suites make stores at the same time, so each test reads only the lines of its own feature.
@MainActor
@Suite(.serialized) struct StoreLoggerTests {
  @Reducer
  struct LoggedCounter {
    struct State: Equatable { var count = 0 }
    enum Action { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  func lines(about name: String) -> [String] {
    Logger.shared.logs.filter { $0.contains(name) }
  }

  @Test func aStoreLogsWhenItIsMadeAndWhenItGoesAway() {
    Logger.shared.clear()
    Logger.shared.isEnabled = true
    defer { Logger.shared.isEnabled = false }
    do {
      let store = Store(initialState: LoggedCounter.State()) { LoggedCounter() }
      store.send(.increment)
      #expect(
        self.lines(about: "LoggedCounter") == ["StoreOf<StoreLoggerTests.LoggedCounter>.init"])
    }
    #expect(
      self.lines(about: "LoggedCounter") == [
        "StoreOf<StoreLoggerTests.LoggedCounter>.init",
        "StoreOf<StoreLoggerTests.LoggedCounter>.deinit",
      ])
    Logger.shared.clear()
    #expect(self.lines(about: "LoggedCounter").isEmpty)
  }

  @Test func aStoreOfOtherTypesIsNamedByThem() {
    Logger.shared.clear()
    Logger.shared.isEnabled = true
    defer { Logger.shared.isEnabled = false }
    do {
      let store = Store<LoggedCounter.State, Int>(initialState: LoggedCounter.State()) {
        Reduce { _, _ in .none }
      }
      _ = store
    }
    #expect(
      self.lines(about: "Store<StoreLoggerTests.LoggedCounter.State, Int>") == [
        "Store<StoreLoggerTests.LoggedCounter.State, Int>.init",
        "Store<StoreLoggerTests.LoggedCounter.State, Int>.deinit",
      ])
  }

  @Test func nothingIsLoggedWhileItIsOff() {
    Logger.shared.clear()
    Logger.shared.isEnabled = false
    do {
      let store = Store(initialState: LoggedCounter.State()) { LoggedCounter() }
      _ = store
    }
    #expect(self.lines(about: "LoggedCounter").isEmpty)
  }
}

/// Darwin's time constants, which TCA's tests sleep by, on Linux too.
@Suite struct TimeConstantsTests {
  @Test func aSecondAndAMillisecondInNanoseconds() {
    #expect(Duration.nanoseconds(Int64(NSEC_PER_SEC)) == .seconds(1))
    #expect(Duration.nanoseconds(Int64(NSEC_PER_MSEC)) == .milliseconds(1))
  }
}
