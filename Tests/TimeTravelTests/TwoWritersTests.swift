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

/// Two recorders on one file: the second is refused, naming the first's process, by the lock
/// the first holds while it writes; a killed process's lock goes with it. Two sessions on one
/// rolling folder: the folder's bytes retention holds for both together.
@Suite struct TwoWritersTests {
  @Test @MainActor func aSecondRecorderInThisProcessIsRefusedUntilTheFirstCloses() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("counter.actionlog")
    let first = try RecorderOf<CounterFeature>(
      url: url, feature: "counter", initialState: CounterFeature.State())
    #expect {
      try RecorderOf<CounterFeature>(
        url: url, feature: "counter", initialState: CounterFeature.State())
    } throws: { error in
      guard case let .beingWritten(path, writer) = error as? ActionLogError else { return false }
      return path == url.path && writer.hasPrefix("this process (\(getpid())")
    }
    try first.close()
    // Closed: the file is a finished recording, which is never overwritten, but nobody's lock.
    #expect(throws: ActionLogError.fileExists(path: url.path)) {
      try RecorderOf<CounterFeature>(
        url: url, feature: "counter", initialState: CounterFeature.State())
    }
  }

  /// A writer of `record-stress`'s kind of recording at `url`.
  static func writer(at url: URL) throws -> LogWriter {
    try LogWriter(
      url: url,
      header: LogHeader(
        feature: "stress", stateType: "Int", actionType: "Int", startedAt: Date(),
        checkpointInterval: 100),
      initialState: 0)
  }

  @Test func aRecorderInAnotherProcessIsNamedAndItsKillFreesTheFile() async throws {
    let executable = try #require(
      productURL("record-stress"), "build the record-stress product first")
    let directory = TemporaryDirectory()
    let url = directory.file("stress.actionlog")
    let process = Process()
    process.executableURL = executable
    process.arguments = [url.path, "--flush-every", "50"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let reader = AckReader(handle: output.fileHandleForReading)
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      _ = reader.finish()
    }
    // NB: Waits for the child's first acknowledged flush: its file and lock are there then.
    let deadline = ContinuousClock.now + .seconds(60)
    while reader.lastAcknowledged == 0, process.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(reader.lastAcknowledged > 0, "the child never acknowledged an action")

    let error = #expect(throws: ActionLogError.self) {
      try Self.writer(at: url)
    }
    #expect(
      error
        == .beingWritten(
          path: url.path, writer: "process \(process.processIdentifier) (record-stress)"),
      "\(String(describing: error))")
    #expect("\(error.map { "\($0)" } ?? "")".contains("close the other first"))

    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    // The killed writer's lock went with it: its recording is kept (never overwritten), and
    // nothing says another recorder is writing it.
    #expect(POSIXFileSystem().lockHolder(of: url.path) == nil)
    #expect(throws: ActionLogError.fileExists(path: url.path)) {
      try Self.writer(at: url)
    }
    #expect(try Recording(contentsOf: url).count >= reader.lastAcknowledged)
  }

  @Test func aKilledRollingRecorderDoesNotBlockTheNextStartInItsFolder() async throws {
    let executable = try #require(
      productURL("record-stress"), "build the record-stress product first")
    let folder = TemporaryDirectory()
    let directory = folder.url.appendingPathComponent("recordings")
    _ = try await runAndKill(
      executable, arguments: ["--rolling", directory.path, "--flush-every", "20"],
      after: .milliseconds(300))
    let killed = try #require(try RecordedSession.all(in: directory).first)
    #expect(killed.segments.allSatisfy { POSIXFileSystem().lockHolder(of: $0.path) == nil })
    let recorder = try await RecorderOf<CounterFeature>(
      directory: directory, feature: "counter", initialState: CounterFeature.State(),
      retention: .bytes(1 << 20))
    try await recorder.close()
    #expect(try RecordedSession.all(in: directory).count == 2)
  }

  /// Sizes of the regular files in `directory`.
  static func sizes(in directory: URL) throws -> [Int] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).map {
      try FileManager.default.attributesOfItem(
        atPath: directory.appendingPathComponent($0).path)[.size] as? Int ?? 0
    }
  }

  @Test @MainActor func twoSessionsOnOneFolderShareItsRetention() async throws {
    let folder = TemporaryDirectory()
    let directory = folder.url.appendingPathComponent("recordings")
    let limit = 100_000
    let segmentBytes = 10_000
    func recorder(_ session: String) throws -> RecorderOf<CounterFeature> {
      try RecorderOf<CounterFeature>(
        directory: directory, feature: "counter", initialState: CounterFeature.State(),
        retention: .bytes(limit), session: session, segmentBytes: segmentBytes,
        checkpointInterval: 10)
    }
    let (first, second) = (try recorder("counter-a"), try recorder("counter-b"))
    let stores = [first, second].map { recorder in
      Store(initialState: CounterFeature.State()) { CounterFeature().recording(to: recorder) }
    }
    var largest = 0
    var largestSegment = 0
    for step in 1...6_000 {
      // NB: The second window is busier than the first, so both rotate, at different paces.
      stores[step.isMultiple(of: 3) ? 0 : 1].send(.incrementButtonTapped)
      guard step.isMultiple(of: 100) else { continue }
      try first.flush()
      try second.flush()
      let sizes = try Self.sizes(in: directory)
      largestSegment = max(largestSegment, sizes.max() ?? 0)
      largest = max(largest, sizes.reduce(0, +))
      // The retention, and the segment being written, which may run past its size to the next
      // checkpoint.
      #expect(
        sizes.reduce(0, +) <= limit + largestSegment,
        "after \(step) actions the folder holds \(sizes.reduce(0, +)) bytes")
      if step.isMultiple(of: 1_000) { await Task.yield() }
    }
    #expect(largest > limit / 2, "the folder never filled: \(largest) bytes")
    try first.close()
    try second.close()
    // Both sessions are still there, each with its newest segments.
    let sessions = try RecordedSession.all(in: directory)
    #expect(sessions.map(\.name) == ["counter-a", "counter-b"])
    for session in sessions {
      let joined = try session.joined()
      #expect(joined.count > 0)
      #expect(session.isFinished)
    }
  }
}
