import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A rolling recorder left on for a long session: bounded on disk the whole time, the newest
/// minutes replay and verify, and the report of the last ones verifies with `replay` and opens
/// in its REPL at a terminal.
@Suite struct FieldRecordingTests {
  static let root = ReplayCommandTests.root

  @MainActor
  @Test func aLongSessionStaysWithinItsRetentionAndItsReportOpens() async throws {
    let folder = TemporaryDirectory()
    let directory = folder.url.appendingPathComponent("recordings")
    let now = LockIsolated(Duration.zero)
    // About 170 bytes an action: a burst of 120,000 actions in 120 s (about 20 MB) is more than
    // the bytes keep, and 80,000 more 10 ms apart (over 13 minutes) more than the age keeps,
    // whose 10 minutes (about 10 MB) the bytes do keep.
    let bytes = 16 << 20
    let retention = LogWriter.Retention.both(.minutes(10), .bytes(bytes))
    let segmentBytes = 512 << 10
    let recorder = try RecorderOf<CounterFeature>(
      directory: directory, feature: "counter", initialState: CounterFeature.State(),
      retention: retention, segmentBytes: segmentBytes, metadata: ["appVersion": "2.4.1"],
      elapsed: { now.value })
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }

    var largestTotal = 0
    var largestSegment = 0
    var oldestKeptAfterBurst = 0
    func measure(at step: Int) throws {
      try recorder.flush()
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      let sizes = try names.map {
        try FileManager.default.attributesOfItem(
          atPath: directory.appendingPathComponent($0).path)[.size] as? Int ?? 0
      }
      let total = sizes.reduce(0, +)
      largestTotal = max(largestTotal, total)
      largestSegment = max(largestSegment, sizes.max() ?? 0)
      // The retention, and the segment being written, which may run past its size to the next
      // checkpoint.
      #expect(
        total <= bytes + largestSegment,
        "after \(step) actions the folder holds \(total) bytes in \(names.count) files")
      #expect(largestSegment <= segmentBytes + 32 << 10, "a segment of \(largestSegment) bytes")
    }

    let actions = 200_000
    let burst = 120_000
    for step in 1...actions {
      now.withValue { $0 += step <= burst ? .milliseconds(1) : .milliseconds(10) }
      store.send(step.isMultiple(of: 3) ? .decrementButtonTapped : .incrementButtonTapped)
      if step.isMultiple(of: 2_000) { try measure(at: step) }
      // NB: Gives the main actor back now and then: other suites' stores run on it too, and
      // their effects would wait out this whole session.
      if step.isMultiple(of: 250) { await Task.yield() }
      if step == burst {
        // The burst spans 120 s, well inside the age: only the bytes can have dropped its start.
        let kept = try #require(try RecordedSession.all(in: directory).last).joined()
        oldestKeptAfterBurst = kept.firstAction
      }
    }
    #expect(oldestKeptAfterBurst > 1, "the bytes retention deleted nothing during the burst")

    // The newest 10 minutes are kept (the age binds now, not the bytes), and replay and verify.
    let session = try #require(try RecordedSession.all(in: directory).last)
    #expect(!session.isFinished)
    let joined = try session.joined()
    let newest = joined.firstAction + joined.count - 1
    #expect(newest == actions)
    let span = joined.time(ofAction: joined.count) - joined.time(ofAction: 1)
    #expect(span >= .seconds(600), "only \(span) of the session is kept")
    #expect(span <= .seconds(600 + 60 + 1), "\(span) kept: more than the age and a segment")
    let timeline = try Timeline(recording: joined, reducer: CounterFeature(), feature: "counter")
    #expect(try timeline.verify() == nil)
    try timeline.goto(joined.count)
    #expect(timeline.state == store.state)

    print(
      """
      long session: \(actions) actions; the folder held at most \(largestTotal) bytes (retention \
      \(bytes), largest segment \(largestSegment)); \(session.segments.count) segments kept, \
      \(joined.count) actions over \(span); the burst's oldest kept action was \
      \(oldestKeptAfterBurst)
      """)

    // The report of the last 5 minutes, made while recording goes on.
    let report = folder.url.appendingPathComponent("bug.actionlog")
    let summary = try recorder.bugReport(
      to: report, last: .seconds(300), note: "the count went wrong")
    store.send(.incrementButtonTapped)
    try recorder.close()
    #expect(summary.actions == 30_001)
    let verified = try await run("replay", ["verify", report.path], in: Self.root)
    #expect(verified.status == 0, "\(verified.output)\(verified.errors)")
    #expect(verified.output.contains("30001 actions"), "\(verified.output)")

    // The same report from the command line, from the segments the recorder left.
    let fromCommandLine = folder.url.appendingPathComponent("bug-cli.actionlog")
    let made = try await run(
      "replay",
      ["report", directory.path, "--last", "5m", "-o", fromCommandLine.path, "--note", "again"],
      in: Self.root)
    #expect(made.status == 0, "\(made.output)\(made.errors)")
    #expect(made.output.contains("30002 actions of session \(session.name)"), "\(made.output)")
    let reverified = try await run("replay", ["verify", fromCommandLine.path], in: Self.root)
    #expect(reverified.status == 0, "\(reverified.output)\(reverified.errors)")

    // It opens in the REPL at a terminal, where its last step is the session's last state.
    let replay = try #require(productURL("replay"))
    let script = Self.root.appendingPathComponent("Tests/ReplayCommandTests/Support/pty_session.py")
    let home = TemporaryDirectory()
    let screen = try await run(
      "python3", [script.path, "--no-color", home.url.path, replay.path, report.path],
      input: "last\\r\nprint count\\r\n\\x04\n", in: Self.root, isProduct: false)
    let count = store.state.count - 1
    #expect(screen.output.contains("counter: 30001 actions."), "\(screen.output)")
    #expect(screen.output.contains("(replay 30001/30001 "), "\(screen.output)")
    #expect(screen.output.contains("\(count)\\r\\n"), "\(screen.output)")
  }
}
