import ComposableArchitecture
import Testing

/// A tally whose effect adds to a shared total, and which can close itself.
@Reducer
struct ClosingTally {
  @ObservableState
  struct State: Equatable {
    @Shared var total: Int
    var taps = 0
  }

  enum Action {
    case tapped
    case closeTapped
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tapped:
        state.taps += 1
        return .run { [total = state.$total] _ in total.withLock { $0 += 10 } }
      case .closeTapped:
        return .run { _ in await self.dismiss() }
      }
    }
  }
}

/// `store.assert` asserts what effects changed through shared values, and `store.isDismissed`
/// says whether the feature closed itself: what SyncUps' tests use.
@MainActor
@Suite struct TestStoreAssertTests {
  @Test func whatAnEffectChangedIsAssertedAfterItFinishes() async {
    let store = TestStore(initialState: ClosingTally.State(total: Shared(value: 0))) {
      ClosingTally()
    }
    await store.send(.tapped) { $0.taps = 1 }
    await store.finish()
    store.assert { $0.$total.withLock { $0 = 10 } }
  }

  @Test func aWrongAssertionFailsWithItsDiff() async {
    let store = TestStore(initialState: ClosingTally.State(total: Shared(value: 0))) {
      ClosingTally()
    }
    await store.send(.tapped) { $0.taps = 1 }
    await store.finish()
    withKnownIssue {
      store.assert { $0.$total.withLock { $0 = 11 } }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("_total: 11") && issue.description.contains("_total: 10")
    }
  }

  @Test func withoutExhaustivityAnUnassertedSharedChangeIsAccepted() async {
    let store = TestStore(initialState: ClosingTally.State(total: Shared(value: 0))) {
      ClosingTally()
    }
    store.exhaustivity = .off
    await store.send(.tapped) { $0.taps = 1 }
    await store.finish()
    await store.send(.tapped) { $0.taps = 2 }
    await store.finish()
    #expect(store.state.total == 20)
  }

  @Test func withoutExhaustivityAWrongAssertionStillFails() async {
    let store = TestStore(initialState: ClosingTally.State(total: Shared(value: 0))) {
      ClosingTally()
    }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.tapped) { $0.taps = 1 }
    await store.finish()
    withKnownIssue {
      store.assert { $0.$total.withLock { $0 = 11 } }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
    }
  }

  @Test func anAssertionThatChangesNothingPassesWhenNothingChanged() async {
    let store = TestStore(initialState: ClosingTally.State(total: Shared(value: 3))) {
      ClosingTally()
    }
    store.assert { _ in }
  }

  @Test func aFeatureThatClosesItselfIsDismissed() async {
    let store = TestStore(initialState: ClosingTally.State(total: Shared(value: 0))) {
      ClosingTally()
    }
    #expect(!store.isDismissed)
    await store.send(.closeTapped)
    await store.finish()
    #expect(store.isDismissed)
  }
}
