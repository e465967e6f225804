import ComposableArchitecture
import Foundation
import ReplayTesting
import Spending
import Testing
import TimeTravel

/// The allowance recorded on the real file system: a second store raises the limit, another
/// program rewrites the limit's file, and the recorded store goes on.
@MainActor
@Suite struct AllowanceRecordingTests {
  /// Where the recording is left, for the package's own `replay` to open.
  static let recordingURL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("allowance/allowance.actionlog")

  @Test func aSessionWithAnotherProgramRecordsAndReplays() async throws {
    let folder = Allowance.limitURL.deletingLastPathComponent()
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try await withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      let recorder = try RecorderOf<Allowance>(
        url: Self.recordingURL, feature: "allowance", initialState: Allowance.State(),
        checkpointInterval: 4)
      let store = Store(initialState: Allowance.State()) { Allowance().recording(to: recorder) }
      let other = Store(initialState: Allowance.State()) { Allowance() }
      store.send(.spend(50))
      store.send(.spend(30))
      other.send(.raiseLimit(200))
      store.send(.spend(90))
      // Another program saves 150, as editors save: a new file renamed into place.
      let program = Process()
      program.executableURL = URL(fileURLWithPath: "/bin/sh")
      program.arguments = [
        "-c", #"printf 150 > "$1.new" && mv "$1.new" "$1""#, "sh", Allowance.limitURL.path,
      ]
      try program.run()
      program.waitUntilExit()
      let deadline = Date().addingTimeInterval(60)
      while store.state.limit != 150, Date() < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(store.state.limit == 150)
      store.send(.spend(10))
      #expect(store.state.spent == 170)
      try recorder.close()
      FileStorage.fileSystem.flush()
    }
    #expect(try String(contentsOf: Allowance.limitURL, encoding: .utf8) == "150")
    try assertReplay(Self.recordingURL) { Allowance() }
  }
}
