import Budget
import ComposableArchitecture
import Foundation
import ReplayTesting
import Spending
import Testing
import TimeTravel

/// A shared file another program rewrites while spending is recorded: the recording keeps the
/// change, and replays with it.
@MainActor
@Suite struct SpendingRecordingTests {
  /// Records spending while another program rewrites the limits' file: the recording keeps the
  /// change, and replays with it.
  func recordSpending() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("spending-\(UUID().uuidString).actionlog")
    let storage = FileStorage.inMemory()
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let recorder = try RecorderOf<Spending>(
        url: url, feature: "spending", initialState: Spending.State())
      let store = Store(initialState: Spending.State()) { Spending().recording(to: recorder) }
      store.send(.raiseLimitButtonTapped)
      let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("limits.json")
      try storage.write(JSONEncoder().encode(Limits(monthly: 500)), to: file)
      store.send(.spend(20))
      #expect(store.state.limits.monthly == 500)
      try recorder.close()
    }
    return url
  }

  @Test func aLimitRewrittenFromOutsideReplays() throws {
    let url = try self.recordSpending()
    defer { try? FileManager.default.removeItem(at: url) }
    try assertReplay(url) { Spending() }
  }

  // Fails on purpose: without the change from outside, the replay's limit is not the recorded one.
  @Test func aRecordingWithoutTheChangeFromOutsideDiverges() throws {
    let url = try self.recordSpending()
    defer { try? FileManager.default.removeItem(at: url) }
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let kept = lines.filter { !$0.contains(#""source":"outside""#) }
    try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: url)
    try assertReplay(url) { Spending() }
  }
}
