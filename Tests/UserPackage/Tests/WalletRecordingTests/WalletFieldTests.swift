import ComposableArchitecture
import Foundation
import ReplayTesting
import Testing
import TimeTravel
import Wallet

/// The folder the wallet records into in the field: `$WALLET_FIELD` when it is set, to look at it
/// afterwards, or else a new temporary folder.
func fieldFolder() throws -> URL {
  let folder =
    ProcessInfo.processInfo.environment["WALLET_FIELD"].map(URL.init(fileURLWithPath:))
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("wallet-\(UUID().uuidString)")
  try? FileManager.default.removeItem(at: folder)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

/// A rolling recorder as the README sets one up, with small segments so that a short session
/// rotates.
func fieldRecorder(in recordings: URL) throws -> RecorderOf<Wallet> {
  try RecorderOf<Wallet>(
    directory: recordings, feature: "wallet", initialState: Wallet.State(),
    retention: .both(.minutes(10), .bytes(1 << 20)), segmentBytes: 4_096,
    checkpointInterval: 10, metadata: ["app": "Wallet", "appVersion": "1.0"]
  )
}

@MainActor
func payments(_ count: Int, on store: StoreOf<Wallet>) {
  for amount in 1...count {
    store.send(.addPaymentTapped)
    store.send(.draft(.amountChanged(amount)))
    store.send(.draft(.saveTapped))
  }
}

/// One launch that crashed after a flush, and the next one, which reports it as the README says
/// and then records and attaches its own last minutes.
@MainActor
@Test func aCrashedSessionIsReportedAtTheNextLaunch() async throws {
  let folder = try fieldFolder()
  defer {
    if ProcessInfo.processInfo.environment["WALLET_FIELD"] == nil {
      try? FileManager.default.removeItem(at: folder)
    }
  }
  let recordings = folder.appendingPathComponent("Recordings")
  let reports = folder.appendingPathComponent("Reports")
  try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)

  // The first launch: what a flush acknowledged is on disk, and the app stops without closing.
  let crashed = try fieldRecorder(in: recordings)
  let first = Store(initialState: Wallet.State()) { Wallet().recording(to: crashed) }
  payments(60, on: first)
  try crashed.flush()

  // The next launch.
  var written: [URL] = []
  for session in try RecorderOf<Wallet>.unfinishedSessions(in: recordings) {
    let url = reports.appendingPathComponent("\(session.name).actionlog")
    let summary = try session.bugReport(to: url, last: .minutes(5), note: "after a crash")
    #expect(summary.actions == 180)
    #expect(summary.header.metadata["note"] == "after a crash")
    written.append(url)
  }
  #expect(written.count == 1)
  let crashReport = try #require(written.first)
  try assertReplay(crashReport) { Wallet() }

  let recorder = try fieldRecorder(in: recordings)
  let store = Store(initialState: Wallet.State()) { Wallet().recording(to: recorder) }
  payments(20, on: store)
  let attached = reports.appendingPathComponent("attached.actionlog")
  let summary = try recorder.bugReport(
    to: attached, last: .minutes(5), note: "The list jumped", metadata: ["device": "CI"])
  #expect(summary.actions == 60)
  #expect(summary.header.metadata["device"] == "CI")
  try assertReplay(attached) { Wallet() }
  try recorder.close()
  // The crashed session is kept until the launch after this one: one earlier session by default.
  #expect(try RecordedSession.all(in: recordings).count == 2)
}
