import ComposableArchitecture
import TestSupport
import Testing

/// What a test store does as TCA's does, where TCA's own tests of failures say so: which
/// assertions run after a failure, when unreceived actions are reported, what `XCTModify` checks
/// in a non-exhaustive store.
@MainActor
@Suite struct TestStoreParityTests {
  @Reducer
  struct Pinger {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case ping, pong, twice }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .ping: return .send(.pong)
        case .pong:
          state.count += 1
          return .none
        case .twice: return .merge(.send(.pong), .send(.pong))
        }
      }
    }
  }

  @Test func aReceiveOfTheWrongActionDoesNotAlsoAssertItsState() async {
    let issues = await recordedIssues {
      let store = TestStore(initialState: Pinger.State()) { Pinger() }
      await store.send(.ping)
      await store.receive(.ping) { $0.count = 99 }
    }
    #expect(
      issues == [
        """
        Received unexpected action:

            − TestStoreParityTests.Pinger.Action.ping
            + TestStoreParityTests.Pinger.Action.pong

        (Expected: −, Received: +)
        """
      ])
  }

  @Test func finishReportsTheActionsNotReceivedOnce() async {
    let issues = await recordedIssues {
      let store = TestStore(initialState: Pinger.State()) { Pinger() }
      await store.send(.twice)
      await store.finish()
    }
    #expect(
      issues == [
        """
        The store received 2 unexpected actions.

          Unhandled actions:
            .pong
            .pong

        To fix, explicitly assert against these actions using "store.receive", skip these \
        actions by performing "await store.skipReceivedActions()", or consider using a \
        non-exhaustive test store: "store.exhaustivity = .off".
        """
      ])
  }

  @Test func xctModifyChecksForAChangeOnlyInAnExhaustiveStore() async {
    func store() -> TestStore<Int?, Bool> {
      TestStore(initialState: Optional(1)) {
        Reduce<Int?, Bool> { _, _ in .none }
      }
    }
    let nonExhaustive = store()
    nonExhaustive.exhaustivity = .off
    await nonExhaustive.send(true) { XCTModify(&$0) { _ in } }

    let issues = await recordedIssues {
      await store().send(true) { XCTModify(&$0) { _ in } }
    }
    #expect(
      issues.first == #"XCTModify: Expected "Int" value to be modified but it was unchanged."#)
  }

  @Test func unhandledActionsStayToBeReceivedAfterTheNextSend() async {
    let issues = await recordedIssues {
      let store = TestStore(initialState: Pinger.State()) { Pinger() }
      await store.send(.ping)
      await store.send(.ping) { $0.count = 1 }
      await store.receive(.pong)
      await store.receive(.pong) { $0.count = 2 }
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix("Must handle 1 received action before sending an action.") == true)
  }
}

/// A feature whose action has a case named as a field of its state (`isOn`), made with the state's
/// `.init()`, as TCA's test store tests write it: the state's type is found from the reducer.
@Reducer
struct SameNameToggle {
  @ObservableState
  struct State: Equatable { var isOn = false }
  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case onAppear
    case isOn(Bool)
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { _, action in
      switch action {
      case .binding:
        return .none
      case .onAppear:
        return .send(.isOn(true))
      case .isOn:
        return .send(.set(\.isOn, true))
      }
    }
  }
}

@MainActor
@Test func aTestStoreFindsItsStatesTypeFromTheReducer() async {
  let store = TestStore(initialState: .init()) {
    SameNameToggle()
  }
  await store.send(.onAppear)
  await store.receive(\.isOn)
  await store.receive(\.binding.isOn) {
    $0.isOn = true
  }
}

@Reducer
struct StampedCounter {
  struct State: Equatable {
    var count = 0
    var stamp: Date?
  }
  enum Action: Equatable { case tap, response, close }
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tap:
        state.count += 1
        return .send(.response)
      case .response:
        state.count += 1
        state.stamp = self.now
        return .none
      case .close:
        return .run { _ in await self.dismiss() }
      }
    }
  }
}

@MainActor
@Test func insideAnAssertionTheStoresStateIsStillTheOneBeforeTheAction() async {
  let store = TestStore(initialState: StampedCounter.State()) {
    StampedCounter()
  } withDependencies: {
    $0.date.now = Date(timeIntervalSince1970: 1)
  }
  await store.send(.tap) {
    #expect(store.state.count == 0)
    $0.count = 1
  }
  #expect(store.state.count == 1)
  await store.receive(.response) {
    #expect(store.state.count == 1)
    $0.count = 2
    // NB: Read with the store's dependencies: the test context has no `date` of its own.
    @Dependency(\.date.now) var now
    $0.stamp = now
  }
  #expect(store.state.count == 2)
}

@MainActor
@Test func anActionSentToADismissedStoreIsReportedAndNotRun() async {
  let store = TestStore(initialState: StampedCounter.State()) {
    StampedCounter()
  } withDependencies: {
    $0.date.now = Date(timeIntervalSince1970: 1)
  }
  await store.send(.close).finish()
  #expect(store.isDismissed)
  await withKnownIssue {
    await store.send(.tap)
  } matching: { issue in
    issue.description.hasSuffix("Can't send action to dismissed test store.")
  }
  #expect(store.state.count == 0)
}
