import ActionLog
@_spi(Internals) import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// A disk that fills up at any write of a run, and a sync that fails once at any point of it:
/// the app goes on; the recorder says once that it stopped and why; nothing after the failure is
/// acknowledged (a failed sync is never taken for a good one by a later sync that succeeds) or
/// written after a torn record; every action acknowledged before it reads back.
@Suite(.serialized) struct WriteFailureTests {
  /// What one run left.
  struct Outcome {
    var recorderStarted = true
    var issues: [String] = []
    var acknowledged = 0
    var aFlushSucceededAfterOneFailed = false
    var closeFailed = false
    /// Whether a flush failed while actions were still to be sent.
    var aFlushFailedBeforeTheLastAction = false
    var finalCount = 0
    var recording: Recording?
    var failures = 0
  }

  static let actions = 60
  static let path = "/faulty/counter.actionlog"

  /// Sends `actions` actions, flushing every fifth, with `operation`'s calls failing from the
  /// `first`-th on (a full disk stays full) or only at it (a one-off I/O error).
  @MainActor static func run(
    failing operation: String, from first: Int, onlyOnce: Bool, code: Int32
  ) throws -> Outcome {
    let fileSystem = FaultInjectingFileSystem(mode: .posix)
    let calls = LockIsolated(0)
    let failures = LockIsolated(0)
    fileSystem.failure = { name, path in
      guard name == operation else { return nil }
      let call = calls.withValue {
        $0 += 1
        return $0
      }
      guard onlyOnce ? call == first : call >= first else { return nil }
      failures.withValue { $0 += 1 }
      return FileSystemError(code: code, operation: "\(name) \(path)")
    }
    var outcome = Outcome()
    let collector = IssueCollector()
    try withIssueReporters([collector]) {
      let recorder: RecorderOf<CounterFeature>
      do {
        recorder = try RecorderOf<CounterFeature>(
          url: URL(fileURLWithPath: Self.path), feature: "counter",
          initialState: CounterFeature.State(),
          options: LogWriter.Options(fileSystem: fileSystem))
      } catch {
        // NB: A recorder that cannot write its header does not start, and says why.
        #expect("\(error)".contains(Self.path))
        outcome.recorderStarted = false
        return
      }
      let store = Store(initialState: CounterFeature.State()) {
        CounterFeature().recording(to: recorder)
      }
      var aFlushFailed = false
      for action in 1...Self.actions {
        store.send(.incrementButtonTapped)
        guard action.isMultiple(of: 5) else { continue }
        do {
          try recorder.flush()
          outcome.acknowledged = action
          if aFlushFailed { outcome.aFlushSucceededAfterOneFailed = true }
        } catch {
          aFlushFailed = true
          if action < Self.actions { outcome.aFlushFailedBeforeTheLastAction = true }
        }
      }
      do { try recorder.close() } catch { outcome.closeFailed = true }
      outcome.finalCount = store.count
    }
    outcome.issues = collector.issues.compactMap(\.message)
    outcome.failures = failures.value
    if let bytes = fileSystem.currentImage()[Self.path] {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("write-failure-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      try materialize([Self.path: bytes], in: folder)
      outcome.recording = try Recording(
        contentsOf: folder.appendingPathComponent("counter.actionlog"))
    }
    return outcome
  }

  /// How many times a run without faults calls `operation`.
  @MainActor static func calls(of operation: String) throws -> Int {
    let fileSystem = FaultInjectingFileSystem(mode: .posix)
    let calls = LockIsolated(0)
    fileSystem.failure = { name, _ in
      if name == operation { calls.withValue { $0 += 1 } }
      return nil
    }
    let recorder = try RecorderOf<CounterFeature>(
      url: URL(fileURLWithPath: Self.path), feature: "counter",
      initialState: CounterFeature.State(), options: LogWriter.Options(fileSystem: fileSystem))
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    for action in 1...Self.actions {
      store.send(.incrementButtonTapped)
      if action.isMultiple(of: 5) { try recorder.flush() }
    }
    try recorder.close()
    return calls.value
  }

  /// What every run must show, whichever call failed. Returns whether the failing call came:
  /// how many writes or syncs a run makes depends on how the writer's thread batches them, so a
  /// run may end before the call a fault-free run made last.
  @discardableResult
  func check(_ outcome: Outcome, _ label: String) -> Bool {
    guard outcome.recorderStarted else { return true }
    #expect(outcome.finalCount == Self.actions, "\(label): the app stopped")
    guard outcome.failures > 0 else {
      // NB: Then nothing failed, and the run is a clean one.
      #expect(outcome.issues.isEmpty, "\(label): \(outcome.issues)")
      #expect(!outcome.closeFailed, "\(label): close failed")
      #expect(outcome.acknowledged == Self.actions, "\(label)")
      #expect(outcome.recording?.count == Self.actions, "\(label)")
      return false
    }
    // NB: Said once: by the first action to find the recorder stopped, or by `close`, which
    // throws, when the failure was at the very end.
    if outcome.aFlushFailedBeforeTheLastAction {
      #expect(outcome.issues.count == 1, "\(label): \(outcome.issues)")
    } else {
      #expect(
        outcome.issues.count == 1 || (outcome.issues.isEmpty && outcome.closeFailed),
        "\(label): \(outcome.issues)")
    }
    for issue in outcome.issues {
      #expect(issue.hasPrefix("Recording stopped at action"), "\(label): \(issue)")
      #expect(issue.contains(Self.path), "\(label): \(issue)")
    }
    #expect(!outcome.aFlushSucceededAfterOneFailed, "\(label): a flush succeeded after a failure")
    guard let recording = outcome.recording else {
      Issue.record("\(label): no recording left")
      return true
    }
    if case .damaged(let problem) = recording.ending {
      Issue.record("\(label): the recording is damaged before its end: \(problem)")
    }
    #expect(
      recording.count >= outcome.acknowledged,
      "\(label): \(recording.count) actions read back, \(outcome.acknowledged) acknowledged")
    return true
  }

  @Test @MainActor func aDiskThatFillsUpAtAnyWrite() throws {
    let writes = try Self.calls(of: "write")
    #expect(writes >= 12)
    var reached = 0
    for first in 1...writes {
      let outcome = try Self.run(failing: "write", from: first, onlyOnce: false, code: ENOSPC)
      if self.check(outcome, "ENOSPC from write \(first) of \(writes)") { reached += 1 }
      for issue in outcome.issues {
        #expect(issue.contains("No space left on device"), "\(issue)")
      }
    }
    // NB: Each of the twelve flushes makes a write of its own, whatever the batching.
    #expect(
      reached >= Self.actions / 5, "a full disk at only \(reached) of \(writes) writes")
  }

  @Test @MainActor func aRecorderToldWhereToSayItStoppedReportsNoIssue() throws {
    // NB: A test store's recorder says it in a note: a debugging aid does not fail the test.
    let fileSystem = FaultInjectingFileSystem(mode: .posix)
    let writes = LockIsolated(0)
    fileSystem.failure = { name, path in
      guard name == "write" else { return nil }
      writes.withValue { $0 += 1 }
      return writes.value > 1 ? FileSystemError(code: ENOSPC, operation: "write \(path)") : nil
    }
    let said = LockIsolated<[String]>([])
    let collector = IssueCollector()
    try withIssueReporters([collector]) {
      let recorder = try RecorderOf<CounterFeature>(
        url: URL(fileURLWithPath: Self.path), feature: "counter",
        initialState: CounterFeature.State(),
        options: LogWriter.Options(
          fileSystem: fileSystem, onStop: { message in said.withValue { $0.append(message) } }))
      let store = Store(initialState: CounterFeature.State()) {
        CounterFeature().recording(to: recorder)
      }
      for _ in 1...10 {
        store.send(.incrementButtonTapped)
        try? recorder.flush()
      }
      try? recorder.close()
      #expect(store.count == 10)
    }
    #expect(collector.issues.isEmpty)
    #expect(said.value.count == 1)
    #expect(said.value.first?.hasPrefix("Recording stopped at action") == true)
  }

  @Test @MainActor func aSyncThatFailsOnceAtAnyPoint() throws {
    let syncs = try Self.calls(of: "sync")
    #expect(syncs >= 12)
    var reached = 0
    for first in 1...syncs {
      let outcome = try Self.run(failing: "sync", from: first, onlyOnce: true, code: EIO)
      if self.check(outcome, "EIO at sync \(first) of \(syncs)") { reached += 1 }
    }
    #expect(
      reached >= Self.actions / 5, "a failed sync at only \(reached) of \(syncs) syncs")
  }
}
