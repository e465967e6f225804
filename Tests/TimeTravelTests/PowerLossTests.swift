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

/// A power loss after any file operation, with the unsynced bytes dropped or cut at a random
/// byte, and the unsynced name changes dropped (or, as ext4 does, kept for synced files), keeps
/// every action a flush acknowledged; every file left opens; no temporary file reaches a reader.
@Suite(.serialized) struct PowerLossTests {
  @Test(arguments: FaultInjectingFileSystem.Mode.allCases)
  @MainActor func aSingleFileKeepsEveryAcknowledgedAction(
    mode: FaultInjectingFileSystem.Mode
  )
    async throws
  {
    let fileSystem = FaultInjectingFileSystem(mode: mode)
    let checker = PowerLossChecker(fileSystem, layout: .singleFile(name: "counter.actionlog"))
    fileSystem.afterOperation = { _ in checker.simulateLosses() }
    let recorder = try RecorderOf<CounterFeature>(
      url: URL(fileURLWithPath: "/faulty/counter.actionlog"), feature: "counter",
      initialState: CounterFeature.State(), options: LogWriter.Options(fileSystem: fileSystem))
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    for action in 1...2_000 {
      store.send(.incrementButtonTapped)
      if action.isMultiple(of: 25) {
        try recorder.flush()
        checker.acknowledge(action)
        // NB: A flush here waits for every simulated loss since the last one: give the main
        // actor back in between, as other suites' stores run on it too.
        await Task.yield()
      }
    }
    try recorder.close()
    checker.simulateLosses()
    #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")
    #expect(checker.losses >= 2 * 160, "only \(checker.losses) simulated losses")
    print("power loss (\(mode), single file): \(checker.summary)")
  }

  @Test(arguments: FaultInjectingFileSystem.Mode.allCases)
  @MainActor func aRollingRecordingKeepsEveryAcknowledgedAction(
    mode: FaultInjectingFileSystem.Mode
  ) async throws {
    let fileSystem = FaultInjectingFileSystem(mode: mode)
    let checker = PowerLossChecker(fileSystem, layout: .rolling)
    fileSystem.afterOperation = { _ in checker.simulateLosses() }
    let recorder = try RecorderOf<CounterFeature>(
      directory: URL(fileURLWithPath: "/faulty"), feature: "counter",
      initialState: CounterFeature.State(), retention: .bytes(4 * 2_048), segmentBytes: 2_048,
      checkpointInterval: 10, options: LogWriter.Options(fileSystem: fileSystem))
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    for action in 1...400 {
      store.send(.incrementButtonTapped)
      if action.isMultiple(of: 25) {
        try recorder.flush()
        checker.acknowledge(action)
        // NB: A flush here waits for every simulated loss since the last one: give the main
        // actor back in between, as other suites' stores run on it too.
        await Task.yield()
      }
    }
    try recorder.close()
    checker.simulateLosses()
    let segments = try #require(
      Int(recorder.url.deletingPathExtension().lastPathComponent.suffix(6)))
    #expect(segments >= 21, "only \(segments - 1) rotations")
    #expect(checker.deletions >= 20, "only \(checker.deletions) deletions")
    #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")
    print("power loss (\(mode), rolling, \(segments) segments): \(checker.summary)")
  }

  @Test func aTemporaryFileACrashLeftIsNamedIgnoredAndRemoved() throws {
    let folder = TemporaryDirectory()
    // What a process killed between writing the header and linking the name leaves.
    let leftover = ".counter-20261124T000000Z-1-000001.actionlog.999999.12345"
    try Data("00000000 {\"kind\":\"header\"".utf8).write(to: folder.file(leftover))
    let recorder = try RecorderOf<CounterFeature>(
      url: folder.file("counter.actionlog"), feature: "counter",
      initialState: CounterFeature.State())
    try recorder.close()
    // A reader sees only the recording, and names the leftover as one.
    #expect(try LogDirectory.segments(in: folder.url).isEmpty)
    #expect(try LogDirectory.leftovers(in: folder.url) == [leftover])
    // A rolling recorder starting in the folder removes it.
    let rolling = try RecorderOf<CounterFeature>(
      directory: folder.url, feature: "counter", initialState: CounterFeature.State(),
      retention: .minutes(1))
    try rolling.close()
    #expect(!FileManager.default.fileExists(atPath: folder.file(leftover).path))
    #expect(try LogDirectory.leftovers(in: folder.url).isEmpty)
  }

  @Test @MainActor func aFullDiskDuringRotationLeavesRecordingGoingOn() throws {
    let fileSystem = FaultInjectingFileSystem(mode: .posix)
    let isFull = LockIsolated(false)
    fileSystem.failure = { operation, path in
      operation == "create" && isFull.value
        ? FileSystemError(code: ENOSPC, operation: "create \(path)") : nil
    }
    let recorder = try RecorderOf<CounterFeature>(
      directory: URL(fileURLWithPath: "/faulty"), feature: "counter",
      initialState: CounterFeature.State(), retention: .bytes(1 << 20), segmentBytes: 2_048,
      checkpointInterval: 10, options: LogWriter.Options(fileSystem: fileSystem))
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    for _ in 1...30 { store.send(.incrementButtonTapped) }
    try recorder.flush()
    let before = recorder.url
    isFull.setValue(true)
    for _ in 1...30 { store.send(.incrementButtonTapped) }
    try withKnownIssue {
      try recorder.flush()
    } matching: { issue in
      let text = issue.description
      return text.contains("No space left on device") && text.contains("Recording goes on in")
    }
    // Still full: the failure was said once for the run of failures, not at every checkpoint.
    for _ in 1...20 { store.send(.incrementButtonTapped) }
    try recorder.flush()
    #expect(recorder.url == before, "no segment could be created, so the same one goes on")
    isFull.setValue(false)
    for _ in 1...30 { store.send(.incrementButtonTapped) }
    try recorder.close()
    #expect(recorder.url != before, "a segment starts once there is room")

    let folder = TemporaryDirectory()
    try materialize(fileSystem.currentImage(), in: folder.url)
    let session = try #require(try RecordedSession.all(in: folder.url).first)
    let joined = try session.joined()
    #expect(joined.count == 110)
    #expect(joined.ending == .clean)
    let timeline = try Timeline(recording: joined, reducer: CounterFeature(), feature: "counter")
    #expect(try timeline.verify() == nil)
    try timeline.goto(110)
    #expect(timeline.state.count == 110)
  }
}

/// Looks at what a power loss would leave, after every operation of a fault-injecting file
/// system: with every unsynced byte dropped, and with them cut at a random byte.
final class PowerLossChecker: @unchecked Sendable {
  enum Layout {
    case singleFile(name: String)
    case rolling
  }

  private let fileSystem: FaultInjectingFileSystem
  private let layout: Layout
  private let lock = NSRecursiveLock()
  private let scratch = TemporaryDirectory()
  private var acknowledged = 0
  private var generator = SplitMix64(seed: 29)
  private var isChecking = false
  private var leftoversSeen = 0
  private var segmentsSeen: Set<String> = []
  private var segmentsGone: Set<String> = []
  private(set) var losses = 0
  private(set) var problems: [String] = []

  init(_ fileSystem: FaultInjectingFileSystem, layout: Layout) {
    self.fileSystem = fileSystem
    self.layout = layout
  }

  func acknowledge(_ action: Int) {
    self.lock.withLock { self.acknowledged = action }
  }

  var deletions: Int { self.lock.withLock { self.segmentsGone.count } }

  var summary: String {
    self.lock.withLock {
      "\(self.losses) simulated losses after \(self.fileSystem.operations) operations, "
        + "\(self.leftoversSeen) with a temporary file left, 0 acknowledged actions lost: "
        + (self.problems.isEmpty ? "none failed" : "\(self.problems.count) failed")
    }
  }

  func simulateLosses() {
    self.lock.lock()
    defer { self.lock.unlock() }
    guard !self.isChecking else { return }
    self.isChecking = true
    defer { self.isChecking = false }
    let acknowledged = self.acknowledged
    let current = Set(self.fileSystem.currentImage().keys.filter { !$0.contains("/.") })
    self.segmentsGone.formUnion(self.segmentsSeen.subtracting(current))
    self.segmentsSeen.formUnion(current)
    for image in [
      self.fileSystem.powerLossImage(), self.fileSystem.powerLossImage(cuttingAt: &self.generator),
    ] {
      self.losses += 1
      do {
        try self.check(image, acknowledged: acknowledged)
      } catch {
        self.problems.append("after operation \(self.fileSystem.operations): \(error)")
      }
    }
  }

  private func check(_ image: [String: [UInt8]], acknowledged: Int) throws {
    let folder = self.scratch.url.appendingPathComponent("image")
    try materialize(image, in: folder)
    let names = Set(image.keys.map { ($0 as NSString).lastPathComponent })
    let leftovers = Set(try LogDirectory.leftovers(in: folder))
    if !leftovers.isEmpty { self.leftoversSeen += 1 }
    switch self.layout {
    case let .singleFile(name):
      let others = names.subtracting(leftovers).subtracting([name])
      guard others.isEmpty else {
        throw Failure("files that are neither it nor leftovers: \(others)")
      }
      guard names.contains(name) else {
        guard acknowledged == 0 else { throw Failure("no recording, \(acknowledged) acknowledged") }
        return
      }
      let recording = try Recording(contentsOf: folder.appendingPathComponent(name))
      if case .damaged(let problem) = recording.ending { throw Failure("damaged: \(problem)") }
      guard recording.count >= acknowledged else {
        throw Failure("\(recording.count) actions, \(acknowledged) acknowledged")
      }
    case .rolling:
      let segments = try LogDirectory.segments(in: folder)
      let others = names.subtracting(leftovers).subtracting(segments.map(\.url.lastPathComponent))
      guard others.isEmpty else {
        throw Failure("files that are neither segments nor leftovers: \(others)")
      }
      guard !segments.isEmpty else {
        guard acknowledged == 0 else { throw Failure("no segment, \(acknowledged) acknowledged") }
        return
      }
      for segment in segments {
        let recording = try Recording(contentsOf: segment.url)
        if case .damaged(let problem) = recording.ending {
          throw Failure("\(segment.url.lastPathComponent) is damaged: \(problem)")
        }
      }
      let sessions = try RecordedSession.all(in: folder)
      guard sessions.count == 1 else { throw Failure("\(sessions.count) sessions") }
      let segmentRecordings = try segments.map { try Recording(contentsOf: $0.url) }
      let (joined, leftOut) = try Recording.joining(segmentRecordings)
      guard leftOut == 0 else { throw Failure("a gap before segment \(leftOut + 1)") }
      let newest = joined.firstAction + joined.count - 1
      guard newest >= acknowledged else {
        throw Failure("the newest action is \(newest), \(acknowledged) acknowledged")
      }
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
