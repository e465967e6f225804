import ComposableArchitecture
import Foundation
import Wallet
import XCTest

final class WalletXCTests: XCTestCase {
  func testCorrectExpectationsPass() async {
    let store = await makeStore()
    await store.send(.addPaymentTapped) {
      $0.draft = Draft.State()
    }
    await store.send(.syncTapped) {
      $0.isSyncing = true
    }
    await store.receive(\.syncResponse) {
      $0.balance = 100
      $0.isSyncing = false
    }
  }

  func testMistakenExpectationFails() async {
    let store = await makeStore()
    await store.send(.addPaymentTapped) {
      $0.draft = Draft.State(amount: 10)
    }
  }

  func testMissingReceiveFails() async {
    let store = await makeStore()
    await store.send(.syncTapped) {
      $0.isSyncing = true
    }
  }
}
