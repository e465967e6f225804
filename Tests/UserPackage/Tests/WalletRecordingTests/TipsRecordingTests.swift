import ComposableArchitecture
import Foundation
import ReplayTesting
import Spending
import Testing
import TimeTravel

/// A feature with nothing `Codable` records, and its recording replays.
@MainActor
@Suite struct TipsRecordingTests {
  func recordTips(to url: URL) throws {
    let recorder = try RecorderOf<Tips>(url: url, feature: "tips", initialState: Tips.State())
    let store = Store(initialState: Tips.State()) { Tips().recording(to: recorder) }
    store.send(.tipped(5, note: "thanks"))
    store.send(.charged(.failure(URLError(.notConnectedToInternet))))
    store.send(.tipped(2, note: nil))
    store.send(.charged(.success(7)))
    try recorder.close()
  }

  @Test func aFeatureWithoutCodableRecordsAndReplays() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tips-\(UUID().uuidString).actionlog")
    defer { try? FileManager.default.removeItem(at: url) }
    try self.recordTips(to: url)
    try assertReplay(url) { Tips() }
  }

  // Fails on purpose: today's reducer adds a bonus to each tip, which the recorded one did not.
  @Test func aChangedTipDiverges() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tips-\(UUID().uuidString).actionlog")
    defer { try? FileManager.default.removeItem(at: url) }
    try self.recordTips(to: url)
    try assertReplay(url) { Tips(bonus: 1) }
  }
}
