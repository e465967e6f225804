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

/// A rolling recorder whose disk fills up at any write of a run and has room again a few writes
/// later: the app goes on, the recorder says once that it stopped, then starts a new segment at
/// the next checkpoint with room, whose metadata says which actions are missing. Every segment
/// opens whole, every action acknowledged before the failure reads back, and each hole in the
/// session's numbering is one its next segment's `gap` names.
@Suite(.serialized) struct DiskFullResumeTests {
  static let actions = 300
  static let directory = "/faulty/recordings"

  struct Outcome {
    var recorderStarted = true
    var issues: [String] = []
    var acknowledgedBeforeFailure = 0
    var aFlushSucceededAfterResuming = false
    var closeFailed = false
    var finalCount = 0
    var failures = 0
    /// How many writes the run asked for, failed or not.
    var writes = 0
    /// The segments left, oldest first.
    var segments: [Recording] = []
  }

  /// Sends `actions` actions, flushing every fifth, with writes failing (ENOSPC) from the
  /// `first`-th to the `first + length - 1`-th.
  @MainActor static func run(fullFrom first: Int, for length: Int) throws -> Outcome {
    let fileSystem = FaultInjectingFileSystem(mode: .posix)
    let writes = LockIsolated(0)
    let failures = LockIsolated(0)
    fileSystem.failure = { name, path in
      guard name == "write" else { return nil }
      let call = writes.withValue {
        $0 += 1
        return $0
      }
      guard call >= first, call < first + length else { return nil }
      failures.withValue { $0 += 1 }
      return FileSystemError(code: ENOSPC, operation: "write \(path)")
    }
    var outcome = Outcome()
    let collector = IssueCollector()
    try withIssueReporters([collector]) {
      let recorder: RecorderOf<CounterFeature>
      do {
        recorder = try RecorderOf<CounterFeature>(
          directory: URL(fileURLWithPath: Self.directory), feature: "counter",
          initialState: CounterFeature.State(), retention: .bytes(10 << 20),
          session: "counter-1", segmentBytes: 2_000, checkpointInterval: 10,
          options: LogWriter.Options(fileSystem: fileSystem))
      } catch {
        // NB: A recorder that cannot write its first header does not start, and says why.
        #expect("\(error)".contains("No space left on device"))
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
          if aFlushFailed {
            outcome.aFlushSucceededAfterResuming = true
          } else {
            outcome.acknowledgedBeforeFailure = action
          }
        } catch {
          aFlushFailed = true
        }
      }
      do { try recorder.close() } catch { outcome.closeFailed = true }
      outcome.finalCount = store.count
    }
    outcome.issues = collector.issues.compactMap(\.message)
    outcome.failures = failures.value
    outcome.writes = writes.value
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("disk-full-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try materialize(fileSystem.currentImage(), in: folder)
    outcome.segments = try LogDirectory.segments(in: folder).map {
      try Recording(contentsOf: $0.url)
    }
    return outcome
  }

  /// The actions a gap's text names: `actions 41–100 (60) were not recorded: …`.
  static func range(of gap: String) -> ClosedRange<Int>? {
    guard gap.hasPrefix("actions "), let dash = gap.firstIndex(of: "–"),
      let space = gap[dash...].firstIndex(of: " "),
      let low = Int(gap[gap.index(gap.startIndex, offsetBy: 8)..<dash]),
      let high = Int(gap[gap.index(after: dash)..<space]), low <= high
    else { return nil }
    return low...high
  }

  func check(_ outcome: Outcome, _ label: String) {
    guard outcome.recorderStarted else { return }
    #expect(outcome.finalCount == Self.actions, "\(label): the app stopped")
    guard outcome.failures > 0 else { return }
    // NB: Said once that it stopped; a disk that filled at a rotation first says that too, once
    // (recording went on in the segment it had).
    let stops = outcome.issues.filter { $0.hasPrefix("Recording stopped at action") }
    let rotations = outcome.issues.filter { $0.hasPrefix("The recorder could not start segment") }
    // A disk that filled only at a rotation, or at the last write (which `close` reports by
    // throwing), stopped nothing before the end.
    #expect(
      stops.count == 1 || (stops.isEmpty && (rotations.count == 1 || outcome.closeFailed)),
      "\(label): \(outcome.issues)")
    #expect(rotations.count <= 1, "\(label): \(outcome.issues)")
    #expect(stops.count + rotations.count == outcome.issues.count, "\(label): \(outcome.issues)")
    for issue in outcome.issues {
      #expect(issue.contains("No space left on device"), "\(label): \(issue)")
    }
    let segments = outcome.segments
    guard let last = segments.last else {
      Issue.record("\(label): no segment left")
      return
    }
    for segment in segments {
      if case .damaged(let problem) = segment.ending {
        Issue.record("\(label): segment \(segment.header.metadata["segment"] ?? "?"): \(problem)")
      }
    }
    // Every hole in the numbering is named by the next segment's gap, which ends right before
    // it and starts no later than what the previous segment holds.
    var gaps = 0
    for (previous, next) in zip(segments, segments.dropFirst()) {
      let end = previous.firstAction + previous.count
      guard let gap = next.header.metadata["gap"] else {
        #expect(next.firstAction == end, "\(label): a hole before action \(next.firstAction)")
        continue
      }
      gaps += 1
      let range = try? #require(Self.range(of: gap), "\(label): \(gap)")
      guard let range else { continue }
      #expect(range.upperBound == next.firstAction - 1, "\(label): \(gap)")
      #expect(range.lowerBound <= end, "\(label): \(gap), the segment before ends at \(end - 1)")
      #expect(gap.contains("No space left on device"), "\(label): \(gap)")
    }
    #expect(gaps <= 1, "\(label): \(gaps) gaps for one full disk")
    // Everything acknowledged before the failure is in a segment before the gap.
    let kept = segments.reduce(into: Set<Int>()) { kept, segment in
      kept.formUnion(segment.firstAction..<(segment.firstAction + segment.count))
    }
    #expect(
      (1...max(1, outcome.acknowledgedBeforeFailure)).allSatisfy(kept.contains)
        || outcome.acknowledgedBeforeFailure == 0,
      "\(label): an acknowledged action is missing")
    // The disk has room for the rest of the run: recording resumed and reached the last action.
    if gaps == 1 {
      #expect(last.firstAction + last.count - 1 == Self.actions, "\(label)")
      // NB: A flush comes every fifth action: one came after the checkpoint it resumed at.
      if last.firstAction - 1 + 5 <= Self.actions {
        #expect(outcome.aFlushSucceededAfterResuming, "\(label): no flush succeeded after")
      }
      #expect(!outcome.closeFailed, "\(label): close failed after resuming")
      #expect(last.ending == .clean, "\(label): \(last.ending)")
    }
  }

  @Test @MainActor func aDiskFullForAWhileAtAnyWrite() throws {
    let clean = try Self.run(fullFrom: .max, for: 0)
    #expect(clean.issues.isEmpty)
    // NB: Every write of a run without faults (its count depends a little on how the writer's
    // thread batches; a run may make more or fewer).
    let writes = clean.writes
    #expect(writes >= Self.actions / 5)
    var resumed = 0
    for first in 1...writes {
      let outcome = try Self.run(fullFrom: first, for: 6)
      self.check(outcome, "ENOSPC at writes \(first)–\(first + 5)")
      if outcome.segments.contains(where: { $0.header.metadata["gap"] != nil }) { resumed += 1 }
    }
    // NB: Those whose disk fills only in the last writes have no checkpoint left to resume at.
    #expect(resumed >= writes / 2, "resumed after only \(resumed) of \(writes) full disks")
    print("disk full for six writes from each of \(writes) writes: \(resumed) runs started again")
  }

  @Test @MainActor func aDiskThatStaysFullNeverResumes() throws {
    let outcome = try Self.run(fullFrom: 30, for: .max / 2)
    #expect(outcome.issues.count == 1)
    #expect(outcome.closeFailed)
    #expect(outcome.segments.allSatisfy { $0.header.metadata["gap"] == nil })
  }
}
