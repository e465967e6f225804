import ActionLog
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A recording process killed at any moment leaves a log that opens, holds a prefix of what was
/// sent, and keeps everything a completed flush acknowledged.
@Suite struct KillTests {
  @Test func killedRecorderLeavesALoadablePrefix() async throws {
    let executable = try #require(
      productURL("record-stress"), "build the record-stress product first")
    let directory = TemporaryDirectory()
    var generator = SystemRandomNumberGenerator()
    var totals: [Int] = []
    var acknowledgedInAll = 0
    let runs = killRuns(default: 200)
    for run in 1...runs {
      let url = directory.file("killed-\(run).actionlog")
      let (acknowledged, pipeClosedEarly) = try await runAndKill(
        executable, arguments: [url.path, "--flush-every", "50"],
        // NB: The delay picks where the kill lands in an endless run, not how fast it goes.
        after: .milliseconds(Int.random(in: 5...120, using: &generator))
      )
      #expect(!pipeClosedEarly, "run \(run): the child exited before it was killed")
      guard FileManager.default.fileExists(atPath: url.path) else {
        // Killed before it created the file: nothing was acknowledged.
        #expect(acknowledged == 0, "run \(run)")
        continue
      }
      let recording = try Recording(contentsOf: url)
      #expect(recording.count >= acknowledged, "run \(run): lost acknowledged actions")
      acknowledgedInAll += acknowledged
      if case .damaged(let problem) = recording.ending {
        Issue.record("run \(run): \(problem)")
      }
      for seq in stride(from: 1, through: recording.count, by: max(1, recording.count / 20)) {
        #expect(try recording.action(seq, as: Int.self).action == seq, "run \(run), action \(seq)")
      }
      if recording.count > 0 {
        #expect(try recording.action(recording.count, as: Int.self).action == recording.count)
      }
      totals.append(recording.count)
    }
    #expect(totals.contains { $0 > 0 })
    print(
      """
      single-file kill loop: \(runs) kills, \(totals.count) logs opened whole, \
      \(acknowledgedInAll) acknowledged actions all kept, \(totals.reduce(0, +)) actions read back
      """)
  }
}

/// How many processes a kill test starts and kills: `KILL_RUNS` when set (how the long runs
/// outside CI are made: `KILL_RUNS=3400 swift test --filter 'KillTests'`), else `default`.
func killRuns(default runs: Int) -> Int {
  ProcessInfo.processInfo.environment["KILL_RUNS"].flatMap(Int.init).map { max(1, $0) } ?? runs
}

/// Runs a process, kills it with SIGKILL after `delay`, and returns the last `ack N` it printed,
/// and whether its output ended before the kill.
func runAndKill(
  _ executable: URL, arguments: [String], after delay: Duration
) async throws -> (acknowledged: Int, exitedEarly: Bool) {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let reader = AckReader(handle: output.fileHandleForReading)
  try await Task.sleep(for: delay)
  let exitedEarly = !process.isRunning
  kill(process.processIdentifier, SIGKILL)
  process.waitUntilExit()
  return (reader.finish(), exitedEarly)
}

/// Reads `ack N` lines on a background thread; `finish()` waits for the end of the output.
final class AckReader: @unchecked Sendable {
  private let handle: FileHandle
  private let done = DispatchSemaphore(value: 0)
  private var last = 0
  private let lock = NSLock()
  private var dying: String?
  private var buffer = ""

  init(handle: FileHandle) {
    self.handle = handle
    Thread.detachNewThread { [self] in
      while true {
        let data = self.handle.availableData
        if data.isEmpty { break }
        self.buffer += String(decoding: data, as: UTF8.self)
        while let newline = self.buffer.firstIndex(of: "\n") {
          let line = self.buffer[..<newline]
          if line.hasPrefix("ack "), let value = Int(line.dropFirst(4)) {
            self.lock.withLock { self.last = value }
          }
          if line.hasPrefix("dies before ") { self.dying = String(line.dropFirst(12)) }
          self.buffer.removeSubrange(...newline)
        }
      }
      self.done.signal()
    }
  }

  /// Waits for the end of the output; returns the last acknowledged action.
  func finish() -> Int {
    self.waitForEnd()
    return self.lastAcknowledged
  }

  /// The last action acknowledged so far, while the process runs.
  var lastAcknowledged: Int {
    self.lock.withLock { self.last }
  }

  /// The operation a process that kills itself named (`dies before OPERATION`), once finished.
  var operationItDiedBefore: String? {
    self.waitForEnd()
    return self.dying
  }

  /// Waits until the reading thread has seen the end; any number of callers may wait.
  private func waitForEnd() {
    self.done.wait()
    self.done.signal()
  }
}
