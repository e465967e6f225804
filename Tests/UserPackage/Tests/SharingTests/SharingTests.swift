import Budget
import ComposableArchitecture
import Spending
import Summary
import Testing

@MainActor
@Suite struct SharingTests {
  @Test func theModulesShareTheLimits() async {
    let spending = TestStore(initialState: Spending.State()) { Spending() }
    let summary = TestStore(initialState: Summary.State()) { Summary() }
    let budget = TestStore(initialState: Budget.State()) { Budget() }
    await spending.send(.raiseLimitButtonTapped) {
      $0.$limits.withLock { $0.monthly = 150 }
    }
    await summary.send(.refreshButtonTapped) {
      $0.text = "Limit: 150"
    }
    #expect(budget.state.limits.monthly == 150)
    await budget.send(.resetButtonTapped) {
      $0.$limits.withLock { $0.monthly = 100 }
    }
    #expect(spending.state.limits.monthly == 100)
  }

  // Fails on purpose: the shared limit changed and the test does not say so.
  @Test func unassertedSharedChangeFails() async {
    let spending = TestStore(initialState: Spending.State()) { Spending() }
    await spending.send(.raiseLimitButtonTapped)
  }
}
