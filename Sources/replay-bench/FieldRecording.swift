import ActionLog
import ArgumentParser
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

extension ReplayBench {
  // Store.send on the todos feature recording in the field: a rolling recorder against a
  // single file, and a single file synced at every flush against one never synced.

  /// How a round records.
  enum FieldMode: CaseIterable, CustomStringConvertible {
    /// One file, never synced.
    case never
    /// One file, synced at every flush (the default).
    case onFlush
    /// Segments in a folder, synced at every flush, rotated and deleted as the retention says.
    case rolling

    var description: String {
      switch self {
      case .never: "single file, .never"
      case .onFlush: "single file, .onFlush"
      case .rolling: "rolling, .onFlush"
      }
    }
  }

  /// The rolling recorder's retention in the measurements: small segments, so that a round
  /// rotates and deletes many times.
  static let fieldRetention = LogWriter.Retention.both(.minutes(10), .bytes(2 << 20))
  static let fieldSegmentBytes = 128 << 10

  @MainActor
  static func fieldSend(scratch: URL, sends: Int, rounds: Int) throws {
    let block = 2_000
    print(
      "Store.send on todos recording in the field (\(sends) actions per round, in blocks of"
        + " \(block) sent to each store in turn; median of \(rounds) rounds, and of each round's"
        + " ratio)"
    )
    let script = self.todosScript(count: sends)
    var timings: [FieldMode: [Duration]] = [:]
    var rollingOverSingle: [Double] = []
    var onFlushOverNever: [Double] = []
    var segmentsStarted = 0
    for round in 0..<rounds {
      var stores: [FieldMode: (store: StoreOf<Todos>, recorder: RecorderOf<Todos>)] = [:]
      for mode in FieldMode.allCases {
        let options = LogWriter.Options(syncPolicy: mode == .never ? .never : .onFlush)
        let recorder: RecorderOf<Todos>
        if mode == .rolling {
          recorder = try RecorderOf<Todos>(
            directory: scratch.appendingPathComponent("field-\(round)"), feature: "todos",
            initialState: Todos.State(), retention: Self.fieldRetention,
            segmentBytes: Self.fieldSegmentBytes, options: options)
        } else {
          recorder = try RecorderOf<Todos>(
            url: scratch.appendingPathComponent("field-\(round)-\(mode).actionlog"),
            feature: "todos", initialState: Todos.State(), options: options)
        }
        stores[mode] = (Self.todosStore(recordingTo: recorder), recorder)
      }
      var totals: [FieldMode: Duration] = [:]
      for (index, start) in stride(from: 0, to: script.count, by: block).enumerated() {
        let actions = script[start..<min(start + block, script.count)]
        let modes = FieldMode.allCases
        for offset in 0..<modes.count {
          let mode = modes[(offset + index + round) % modes.count]
          guard let (store, recorder) = stores[mode] else { continue }
          let start = ContinuousClock.now
          for action in actions {
            store.send(action)
          }
          totals[mode, default: .zero] += ContinuousClock.now - start
          // Untimed, as an app's periodic flush: the sync waits for no other mode's turn.
          try recorder.flush()
        }
      }
      for (mode, total) in totals { timings[mode, default: []].append(total) }
      if let rolling = totals[.rolling], let single = totals[.onFlush], let never = totals[.never] {
        rollingOverSingle.append(rolling / single)
        onFlushOverNever.append(single / never)
      }
      for (_, recorder) in stores.values { try recorder.close() }
      let segments = try LogDirectory.segments(in: scratch.appendingPathComponent("field-\(round)"))
      segmentsStarted += segments.last?.index ?? 0
    }
    for mode in FieldMode.allCases {
      self.row(mode.description, median(timings[mode] ?? []), per: sends)
    }
    print("  (the rolling recorder started \(segmentsStarted / max(1, rounds)) segments a round)")
    let rolling = median(rollingOverSingle)
    print("  rolling against a single file, both .onFlush:")
    self.ratio(
      rolling, goal: "≤ 1.05×", met: rolling <= 1.05, note: rangeOfRounds(rollingOverSingle))
    let synced = median(onFlushOverNever)
    print("  .onFlush against .never, single file:")
    self.ratio(synced, goal: "≤ 1.05×", met: synced <= 1.05, note: rangeOfRounds(onFlushOverNever))

    // Memory over a long session, each in a process of its own.
    let short = sends
    let long = sends * 10
    let shortGrowth = try Self.measureInChild(["rolling-memory-child", "\(short)"])
    let longGrowth = try Self.measureInChild(["rolling-memory-child", "\(long)"])
    self.figure(
      "peak memory, \(short)", "\(megabytes(shortGrowth)) MB", "growth over a rolling session")
    self.figure("peak memory, \(long)", "\(megabytes(longGrowth)) MB", "ten times as long")
    let growth = Double(longGrowth) / Double(max(1, shortGrowth))
    self.ratio(growth, goal: "≤ 1.25× (flat)", met: growth <= 1.25)
    print()
  }

  /// The growth of peak resident memory over `sends` todos actions recorded by a rolling
  /// recorder, in a child.
  @MainActor
  static func rollingMemoryChild(sends: Int) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-bench-memory-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = self.todosScript(count: 2_000)
    let recorder = try RecorderOf<Todos>(
      directory: directory, feature: "todos", initialState: Todos.State(),
      retention: Self.fieldRetention, segmentBytes: Self.fieldSegmentBytes)
    let store = Self.todosStore(recordingTo: recorder)
    // The first 50 actions grow the list to its size; the rest edit it, so the state stays the
    // same size and what grows is the recording's.
    for action in script.prefix(50) { store.send(action) }
    try recorder.flush()
    let before = Self.peakResidentBytes()
    for step in 0..<sends {
      store.send(script[50 + step % (script.count - 50)])
      if step % 2_000 == 1_999 { try recorder.flush() }
    }
    try recorder.close()
    print(max(0, Self.peakResidentBytes() - before))
  }
}

/// `replay-bench rolling-memory-child N`: a memory measurement, in a process of its own.
struct RollingMemoryChild: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the growth of peak resident memory over N actions recorded in segments.",
    shouldDisplay: false
  )

  @Argument(help: "How many actions.")
  var count: Int

  func run() async throws {
    let count = self.count
    try await MainActor.run { try ReplayBench.rollingMemoryChild(sends: count) }
  }
}
