import ComposableArchitecture
import Foundation
import Testing
import Wallet

@MainActor
func makeStore() -> TestStoreOf<Wallet> {
  TestStore(initialState: Wallet.State()) {
    Wallet()
  } withDependencies: {
    $0.continuousClock = ImmediateClock()
    $0.date.now = Date(timeIntervalSince1970: 0)
    $0.uuid = .incrementing
  }
}

@MainActor
@Test func correctExpectationsPass() async {
  let store = makeStore()
  await store.send(.addPaymentTapped) {
    $0.draft = Draft.State()
  }
  await store.send(.draft(.amountChanged(25))) {
    $0.draft?.amount = 25
  }
  await store.send(.draft(.saveTapped)) {
    $0.balance = -25
    $0.draft = nil
    $0.payments = [
      Payment.State(id: UUID(0), amount: 25, date: Date(timeIntervalSince1970: 0))
    ]
  }
  await store.send(.syncTapped) {
    $0.isSyncing = true
  }
  await store.receive(\.syncResponse) {
    $0.balance = 75
    $0.isSyncing = false
  }
}

@MainActor
@Test func mistakenExpectationFails() async {
  let store = makeStore()
  await store.send(.addPaymentTapped) {
    $0.draft = Draft.State(amount: 10)
  }
}

@MainActor
@Test func missingReceiveFails() async {
  let store = makeStore()
  await store.send(.syncTapped) {
    $0.isSyncing = true
  }
  await store.finish()
}
