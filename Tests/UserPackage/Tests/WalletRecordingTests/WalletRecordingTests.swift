import ActionLog
import ComposableArchitecture
import Foundation
import ReplayTesting
import Testing
import TimeTravel
import Wallet

/// Records a wallet session with the reducer as it is today (a sync and its response, a payment,
/// a cancel), and returns the recording's URL: `$WALLET_RECORDING` when it is set, to keep the
/// recording for a later release of the feature, or else a temporary file.
@MainActor
func recordSession() async throws -> URL {
  let url =
    ProcessInfo.processInfo.environment["WALLET_RECORDING"].map(URL.init(fileURLWithPath:))
    ?? FileManager.default.temporaryDirectory
    .appendingPathComponent("wallet-\(UUID().uuidString).actionlog")
  try? FileManager.default.removeItem(at: url)
  let recorder = try RecorderOf<Wallet>(url: url, feature: "wallet", initialState: Wallet.State())
  let store = Store(initialState: Wallet.State()) {
    Wallet().recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = ImmediateClock()
  }
  await store.send(.syncTapped).finish()
  store.send(.addPaymentTapped)
  store.send(.draft(.amountChanged(25)))
  store.send(.draft(.saveTapped))
  store.send(.payments(.element(id: store.payments[0].id, action: .clearTapped)))
  store.send(.cancelSyncTapped)
  try recorder.close()
  return url
}

/// Removes a recording unless it was asked to be kept.
func discard(_ url: URL) {
  guard ProcessInfo.processInfo.environment["WALLET_RECORDING"] == nil else { return }
  try? FileManager.default.removeItem(at: url)
}

@MainActor
@Test func correctRecordingReplays() async throws {
  let url = try await recordSession()
  defer { discard(url) }
  try assertReplay(url) { Wallet() }
}

// Each action names the line that sent it: a `send` in this file, or the `.run` in the feature
// whose effect fed it back.
@MainActor
@Test func correctRecordingNamesWhereEachActionCameFrom() async throws {
  let url = try await recordSession()
  defer { discard(url) }
  let recording = try Recording(contentsOf: url)
  #expect(recording.site(ofAction: 1)?.fileID == "WalletRecordingTests/WalletRecordingTests.swift")
  let fedBack = try #require(
    (1...recording.count).first {
      if case .effect = recording.origin(ofAction: $0) { true } else { false }
    })
  #expect(recording.site(ofAction: fedBack)?.fileID == "Wallet/Wallet.swift")
}

// A fee added since the session was recorded: today's reducer no longer reproduces it.
@MainActor
@Test func mistakenRecordingDiverges() async throws {
  let url = try await recordSession()
  defer { discard(url) }
  try assertReplay(url) { Wallet(fee: 1) }
}

/// Records a payees session (two payees added through the sheet, typed into its form, the
/// second removed through the alert) and returns the recording's URL.
@MainActor
func recordPayeesSession() async throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("payees-\(UUID().uuidString).actionlog")
  let recorder = try RecorderOf<Payees>(url: url, feature: "payees", initialState: Payees.State())
  let store = Store(initialState: Payees.State()) {
    Payees().recording(to: recorder)
  }
  for (name, iban) in [("Ada ", "GB33"), ("Grace", "NL91")] {
    store.send(.addTapped)
    store.send(.destination(.presented(.add(.binding(.set(\.name, name))))))
    store.send(.destination(.presented(.add(.binding(.set(\.iban, iban))))))
    await store.send(.destination(.presented(.add(.saveTapped)))).finish()
  }
  let last = store.payees[1].id
  store.send(.removeTapped(id: last))
  store.send(.destination(.presented(.alert(.confirmRemoval(id: last)))))
  try recorder.close()
  return url
}

@MainActor
@Test func correctPayeesRecordingReplays() async throws {
  let url = try await recordPayeesSession()
  defer { try? FileManager.default.removeItem(at: url) }
  try assertReplay(url) { Payees() }
}

// Names no longer trimmed since the session was recorded: today's reducer does not reproduce it.
@MainActor
@Test func mistakenPayeesRecordingDiverges() async throws {
  let url = try await recordPayeesSession()
  defer { try? FileManager.default.removeItem(at: url) }
  try assertReplay(url) { Payees(trimsNames: false) }
}
