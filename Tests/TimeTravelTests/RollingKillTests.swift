import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// A rolling recorder killed at any moment, in a rotation included, leaves segments that all
/// open and join without a gap, keeps every acknowledged action, leaves no temporary file a
/// reader would take for a segment (and none once the next launch has started), and the bug
/// report made after the kill verifies.
///
/// `ROLLING_KILL_RUNS=500 swift test --filter RollingKillTests` runs it longer.
@Suite struct RollingKillTests {
  @Test func killedRollingRecorderLosesNothingAcknowledged() async throws {
    let executable = try #require(
      productURL("record-stress"), "build the record-stress product first")
    let runs =
      ProcessInfo.processInfo.environment["ROLLING_KILL_RUNS"].flatMap(Int.init)
      ?? killRuns(default: 200)
    let folder = TemporaryDirectory()
    var generator = SystemRandomNumberGenerator()
    var figures = KillFigures()
    for run in 1...runs {
      let directory = folder.url.appendingPathComponent("run-\(run)")
      var arguments = [
        "--rolling", directory.path, "--flush-every", "20", "--segment-bytes", "2048",
      ]
      // Every other run dies just before a random file-system operation, most of which belong
      // to a rotation; the others are killed after a random delay.
      let dieAt = run.isMultiple(of: 2) ? Int.random(in: 1...400, using: &generator) : nil
      if let dieAt { arguments += ["--die-at-operation", "\(dieAt)"] }
      // Half the runs (of both kinds) write each new file under a hidden name first, as where
      // there are no unnamed files (O_TMPFILE); the others must leave nothing behind.
      let hiddenFiles = run % 4 == 0 || run % 4 == 1
      if hiddenFiles { arguments.append("--hidden-files") }
      // NB: A random delay picks where the kill lands in an endless run, not how fast it goes.
      let (acknowledged, diedBefore) = try await runAndKill(
        executable, arguments: arguments,
        after: dieAt == nil ? .milliseconds(Int.random(in: 5...150, using: &generator)) : nil)
      if let diedBefore { figures.operationsDiedBefore[diedBefore, default: 0] += 1 }
      let context =
        "run \(run)\(dieAt.map { ", died at operation \($0) (\(diedBefore ?? "?"))" } ?? "")"
      if !hiddenFiles, let left = try? LogDirectory.leftovers(in: directory), !left.isEmpty {
        Issue.record("\(context): an unnamed file's run left \(left)")
      }
      do {
        try figures.check(directory, acknowledged: acknowledged)
      } catch {
        Issue.record("\(context): \(error)")
      }
    }
    print("rolling kill loop: \(figures.summary(runs: runs))")
    #expect(
      figures.reports > runs / 2, "too few runs recorded anything: \(figures.summary(runs: runs))")
  }
}

/// What the kill loop found, and the checks of one killed run's folder.
struct KillFigures {
  var reports = 0
  var segments = 0
  var leftoversRemoved = 0
  var acknowledgedActions = 0
  var operationsDiedBefore: [String: Int] = [:]

  func summary(runs: Int) -> String {
    """
    \(runs) kills, \(self.reports) reports verified, \(self.segments) segments opened, \
    \(self.acknowledgedActions) acknowledged actions all kept, \(self.leftoversRemoved) \
    temporary files left by a kill (named, ignored, removed at the next launch); killed \
    just before: \(self.operationsDiedBefore.sorted { $0.key < $1.key }
      .map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    """
  }

  mutating func check(_ directory: URL, acknowledged: Int) throws {
    guard FileManager.default.fileExists(atPath: directory.path) else {
      guard acknowledged == 0 else { throw Failure("no folder, \(acknowledged) acknowledged") }
      return
    }
    // What a reader sees: only segments, and temporary files it names as leftovers.
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    let segments = try LogDirectory.segments(in: directory)
    let leftovers = try LogDirectory.leftovers(in: directory)
    let others = names.subtracting(segments.map(\.url.lastPathComponent)).subtracting(leftovers)
    guard others.isEmpty else {
      throw Failure("files that are neither segments nor leftovers: \(others)")
    }
    guard !segments.isEmpty else {
      guard acknowledged == 0 else { throw Failure("no segment, \(acknowledged) acknowledged") }
      return
    }
    var recordings: [Recording] = []
    for segment in segments {
      let recording = try Recording(contentsOf: segment.url)
      if case .damaged(let problem) = recording.ending {
        throw Failure("\(segment.url.lastPathComponent) is damaged: \(problem)")
      }
      recordings.append(recording)
    }
    self.segments += segments.count
    let (joined, leftOut) = try Recording.joining(recordings)
    guard leftOut == 0 else {
      throw Failure("a gap before segment \(leftOut + 1) of \(segments.count)")
    }
    let newest = joined.firstAction + joined.count - 1
    guard newest >= acknowledged else {
      throw Failure("the newest action is \(newest), \(acknowledged) acknowledged")
    }
    self.acknowledgedActions += acknowledged

    // The next launch: finds the session unfinished and reports it.
    let sessions = try RecorderOf<CounterFeature>.unfinishedSessions(in: directory)
    guard sessions.count == 1, let session = sessions.first else {
      throw Failure("\(sessions.count) unfinished sessions")
    }
    let report = directory.deletingLastPathComponent()
      .appendingPathComponent("\(directory.lastPathComponent)-report.actionlog")
    try session.bugReport(to: report, last: .milliseconds(40), note: "after a kill")
    let recording = try Recording(contentsOf: report)
    // The report says how the session ended: the killed app never closed it.
    guard recording.ending == .unterminated else {
      throw Failure("the report ends \(recording.ending)")
    }
    guard recording.header.metadata["note"] == "after a kill" else {
      throw Failure("the note is lost")
    }
    let timeline = try Timeline(recording: recording, reducer: CounterFeature(), feature: "counter")
    if let divergence = try timeline.verify() {
      throw Failure("the report does not verify: \(divergence)")
    }
    try timeline.goto(recording.count)
    guard timeline.state.count == newest else {
      throw Failure("the report ends at count \(timeline.state.count), the session at \(newest)")
    }
    self.reports += 1

    // The next launch's recorder removes what the killed one left.
    self.leftoversRemoved += leftovers.count
    let next = try RecorderOf<CounterFeature>(
      directory: directory, feature: "counter", initialState: CounterFeature.State(),
      retention: .bytes(1 << 20))
    try next.close()
    guard try LogDirectory.leftovers(in: directory).isEmpty else {
      throw Failure("the next launch left \(try LogDirectory.leftovers(in: directory))")
    }
    guard try RecordedSession.all(in: directory).count == 2 else {
      throw Failure("the next launch did not keep the previous session beside its own")
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// Runs `executable` until it exits, or kills it with SIGKILL after `delay`; returns the last
/// `ack N` it printed, and the operation it killed itself before, if it did.
private func runAndKill(
  _ executable: URL, arguments: [String], after delay: Duration?
) async throws -> (acknowledged: Int, diedBefore: String?) {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let reader = AckReader(handle: output.fileHandleForReading)
  // NB: Without a delay the program kills itself at its chosen operation; the bound only keeps
  // one that hangs from hanging the test.
  let deadline = ContinuousClock.now + (delay ?? hangBound)
  while process.isRunning, ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(delay == nil ? 5 : 1))
  }
  if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  process.waitUntilExit()
  return (reader.finish(), reader.operationItDiedBefore)
}
