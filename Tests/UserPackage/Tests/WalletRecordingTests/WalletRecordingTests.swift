import ComposableArchitecture
import Foundation
import ReplayTesting
import Testing
import TimeTravel
import Wallet

/// Records a wallet session with the reducer as it is today, and returns the recording's URL.
@MainActor
func recordSession() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("wallet-\(UUID().uuidString).actionlog")
  let recorder = try RecorderOf<Wallet>(url: url, feature: "wallet", initialState: Wallet.State())
  let store = Store(initialState: Wallet.State()) { Wallet().recording(to: recorder) }
  store.send(.addPaymentTapped)
  store.send(.draft(.amountChanged(25)))
  store.send(.draft(.saveTapped))
  store.send(.payments(.element(id: store.payments[0].id, action: .clearTapped)))
  try recorder.close()
  return url
}

@MainActor
@Test func correctRecordingReplays() throws {
  let url = try recordSession()
  defer { try? FileManager.default.removeItem(at: url) }
  try assertReplay(url) { Wallet() }
}

// A fee added since the session was recorded: today's reducer no longer reproduces it.
@MainActor
@Test func mistakenRecordingDiverges() throws {
  let url = try recordSession()
  defer { try? FileManager.default.removeItem(at: url) }
  try assertReplay(url) { Wallet(fee: 1) }
}
