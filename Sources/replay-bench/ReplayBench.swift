import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// Measures what recording and replay cost, each figure side by side with its baseline in the
/// same run, and prints the ratio and the goal.
///
///     $ replay-bench [--quick]
///
/// Build it in release mode (`Tools/bench` does). `--quick` uses smaller sizes, for a smoke run.
/// For profilers: `--send N [--recording FILE [--writer-idle]]` only sends N todos actions to a
/// store (recording them to FILE, encoding them only at the end), `--open FILE` only opens FILE
/// (and reads it with a newline scan) twenty times, and `--write FILE N` writes an N-action todos
/// log to open.
@main
struct ReplayBench {
  @MainActor
  static func main() async throws {
    let quick = CommandLine.arguments.contains("--quick")
    // For profiling Store.send alone: `replay-bench --send N` sends N todos actions, no recording.
    if let index = CommandLine.arguments.firstIndex(of: "--send"), index + 1 < CommandLine.arguments.count,
      let count = Int(CommandLine.arguments[index + 1])
    {
      // With `--recording FILE`, a recorder records them to FILE; with `--writer-idle` too, the
      // writer encodes nothing until the end.
      let mode: Mode = CommandLine.arguments.contains("--writer-idle") ? .enqueueOnly : .concurrent
      let recorder = try CommandLine.arguments.firstIndex(of: "--recording").map { index in
        try RecorderOf<Todos>(
          url: URL(fileURLWithPath: CommandLine.arguments[index + 1]), feature: "todos",
          initialState: Todos.State(), options: mode.options
        )
      }
      let store = Store(initialState: Todos.State()) {
        if let recorder {
          Todos().recording(to: recorder)
        } else {
          Todos()
        }
      } withDependencies: {
        $0.uuid = .incrementing
        $0.continuousClock = ImmediateClock()
      }
      let script = self.todosScript(count: count)
      let start = ContinuousClock.now
      for action in script { store.send(action) }
      let sending = ContinuousClock.now - start
      try recorder?.close()
      print("\(store.todos.count) todos; sending took \(format(sending)), \(format(sending / count)) per action")
      return
    }
    // Memory measurements run in child processes of their own.
    for mode in ["--memory-timeline", "--memory-every"] {
      if let index = CommandLine.arguments.firstIndex(of: mode), index + 2 < CommandLine.arguments.count,
        let steps = Int(CommandLine.arguments[index + 2])
      {
        try self.memoryChild(mode: mode, path: CommandLine.arguments[index + 1], steps: steps)
        return
      }
    }
    // For profiling the scan alone: `replay-bench --open FILE` opens FILE twenty times, and
    // reads it as often with a newline scan, in turns.
    if let index = CommandLine.arguments.firstIndex(of: "--open"), index + 1 < CommandLine.arguments.count {
      let url = URL(fileURLWithPath: CommandLine.arguments[index + 1])
      let actions = try Recording(contentsOf: url).count
      try self.compareOpen(url, actions: actions, rounds: 20)
      return
    }
    // For making a file to profile with: `replay-bench --write FILE N` writes an N-action log.
    if let index = CommandLine.arguments.firstIndex(of: "--write"),
      index + 2 < CommandLine.arguments.count, let count = Int(CommandLine.arguments[index + 2])
    {
      try self.writeTodosLog(URL(fileURLWithPath: CommandLine.arguments[index + 1]), actions: count)
      return
    }
    if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
      print(
        """
        usage: replay-bench [--quick] [--only send|writer|open|timeline]

        Prints each figure, its baseline, the ratio, and the goal. --only runs one section.
        """
      )
      return
    }
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }

    #if DEBUG
      print("warning: this is a debug build; figures are meaningful only in release (Tools/bench)")
    #endif
    print("replay-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
    let sections = ["send", "writer", "open", "timeline"]
    var only: String?
    if let index = CommandLine.arguments.firstIndex(of: "--only") {
      guard index + 1 < CommandLine.arguments.count, sections.contains(CommandLine.arguments[index + 1]) else {
        FileHandle.standardError.write(Data("replay-bench: --only takes one of \(sections.joined(separator: ", "))\n".utf8))
        exit(2)
      }
      only = CommandLine.arguments[index + 1]
    }
    func runs(_ section: String) -> Bool { only == nil || only == section }
    if runs("send") {
      try self.storeSend(scratch: scratch, sends: quick ? 2_000 : 20_000, rounds: quick ? 3 : 15)
    }
    if runs("writer") { try self.writerThroughput(scratch: scratch, actions: quick ? 20_000 : 200_000) }
    if runs("open") { try self.openAndIndex(scratch: scratch, actions: quick ? 50_000 : 1_000_000) }
    if runs("timeline") {
      try self.seek(scratch: scratch, actions: quick ? 20_000 : 1_000_000, walk: quick ? 5_000 : 100_000)
    }
  }

  // MARK: - Store.send with recording off and on

  /// How a round records.
  enum Mode: CaseIterable {
    /// No recorder.
    case off
    /// Recording, with the writer's encoding deferred to `close()`: what the sending thread
    /// itself pays.
    case enqueueOnly
    /// Recording, with the writer encoding on its thread while the store runs.
    case concurrent

    /// The writer's options for the mode.
    var options: LogWriter.Options {
      switch self {
      case .enqueueOnly:
        LogWriter.Options(
          syncPolicy: .never, flushInterval: .seconds(3_600), batchSize: .max / 2,
          maximumPendingRecords: .max / 2
        )
      case .off, .concurrent:
        LogWriter.Options(syncPolicy: .never)
      }
    }
  }

  @MainActor
  static func storeSend(scratch: URL, sends: Int, rounds: Int) throws {
    let block = 2_000
    print(
      "Store.send on todos (\(sends) actions per round, in blocks of \(block) sent to each store in"
        + " turn; median of \(rounds) rounds, and of each round's ratio to recording off)"
    )
    let script = self.todosScript(count: sends)
    var timings: [Mode: [Duration]] = [:]
    // NB: Each round's ratio compares stores that took turns in the same second, so what the
    // machine did meanwhile cancels out of it; the median of those ratios is the figure.
    var ratios: [Mode: [Double]] = [:]
    for round in 0..<rounds {
      // One store per mode, all alive at once, take turns at each block of the script: a machine
      // whose speed drifts from second to second (a shared host) slows all three alike.
      var stores: [Mode: (store: StoreOf<Todos>, recorder: RecorderOf<Todos>?)] = [:]
      for mode in Mode.allCases {
        let recorder =
          mode == .off
          ? nil
          : try RecorderOf<Todos>(
            url: scratch.appendingPathComponent("send-\(round)-\(mode).actionlog"), feature: "todos",
            initialState: Todos.State(), options: mode.options
          )
        let store = Store(initialState: Todos.State()) {
          if let recorder {
            Todos().recording(to: recorder)
          } else {
            Todos()
          }
        } withDependencies: {
          $0.uuid = .incrementing
          $0.continuousClock = ImmediateClock()
        }
        stores[mode] = (store, recorder)
      }
      var totals: [Mode: Duration] = [:]
      for (index, start) in stride(from: 0, to: script.count, by: block).enumerated() {
        let actions = script[start..<min(start + block, script.count)]
        // Rotate which mode goes first, so warm-up favours none.
        let modes = Mode.allCases
        for offset in 0..<modes.count {
          let mode = modes[(offset + index + round) % modes.count]
          guard let (store, recorder) = stores[mode] else { continue }
          let start = ContinuousClock.now
          for action in actions {
            store.send(action)
          }
          totals[mode, default: .zero] += ContinuousClock.now - start
          // Untimed: what the writer still has to do waits for no other mode's turn. The busy
          // writer has worked alongside the sends (it wakes every 1,024 records); the idle one
          // encodes the whole block only now.
          try recorder?.flush()
        }
      }
      for (mode, total) in totals {
        timings[mode, default: []].append(total)
        if let off = totals[.off] { ratios[mode, default: []].append(total / off) }
      }
      for (_, recorder) in stores.values { try recorder?.close() }
    }
    let baseline = median(timings[.off] ?? [])
    let enqueueOnly = median(timings[.enqueueOnly] ?? [])
    let concurrent = median(timings[.concurrent] ?? [])
    self.row("recording off", baseline, per: sends)
    for (label, mode, duration) in [
      ("recording on, writer idle", Mode.enqueueOnly, enqueueOnly),
      ("recording on, writer busy", Mode.concurrent, concurrent),
    ] {
      self.row(label, duration, per: sends)
      let ratio = median(ratios[mode] ?? [])
      self.ratio(ratio, goal: "≤ 1.10×", met: ratio <= 1.10, note: rangeOfRounds(ratios[mode] ?? []))
    }
    print()
  }

  /// A session that grows a todo list to 50 items and then edits, filters and re-sorts it.
  static func todosScript(count: Int) -> [Todos.Action] {
    var actions: [Todos.Action] = []
    var ids: [UUID] = []
    var next = 0
    while actions.count < count {
      if ids.count < 50 {
        actions.append(.addTodoButtonTapped)
        ids.insert(UUID(next), at: 0)
        next += 1
      } else {
        let id = ids[actions.count % ids.count]
        switch actions.count % 10 {
        case 0: actions.append(.filterPicked(actions.count % 20 == 0 ? .active : .all))
        case 1: actions.append(.sortCompletedTodos)
        default: actions.append(.todos(.element(id: id, action: .textFieldChanged("item \(actions.count)"))))
        }
      }
    }
    return actions
  }

  // MARK: - Background encode and append

  static func writerThroughput(scratch: URL, actions: Int) throws {
    print("LogWriter: encode, frame and append \(actions) todos actions on the background thread")
    let url = scratch.appendingPathComponent("throughput.actionlog")
    let writer = try self.todosWriter(url)
    let script = self.todosScript(count: actions)
    let start = ContinuousClock.now
    for (index, action) in script.enumerated() {
      writer.append(
        .action(seq: index + 1, time: .nanoseconds(index), origin: .send, value: action, captured: CapturedValues())
      )
    }
    let enqueued = ContinuousClock.now - start
    try writer.close()
    let total = ContinuousClock.now - start
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    print(
      "  \(pad("encode + append"))\(pad(format(total), 12))"
        + "\(Int(Double(actions) / total.seconds)) actions/s, \(megabytes(size)) MB written"
    )
    print(
      "  \(pad("appends, caller's view"))\(pad(format(enqueued), 12))\(format(enqueued / actions)) per action"
        + " (blocks while \(LogWriter.Options().maximumPendingRecords) records wait)"
    )
    print()
  }

  // MARK: - Open and index vs raw read and newline scan

  static func openAndIndex(scratch: URL, actions: Int) throws {
    let url = scratch.appendingPathComponent("large.actionlog")
    print("Opening a \(actions)-action log: Recording(contentsOf:) vs reading it and counting newlines")
    let writeStart = ContinuousClock.now
    try self.writeTodosLog(url, actions: actions)
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    print("  (wrote \(megabytes(size)) MB in \(format(ContinuousClock.now - writeStart)))")
    try self.compareOpen(url, actions: actions, rounds: 15)
  }

  /// Opens the log at `url` and reads it with a newline scan, in turns, and prints both medians.
  static func compareOpen(_ url: URL, actions: Int, rounds: Int) throws {
    var raw: [Duration] = []
    var open: [Duration] = []
    var lines = 0
    var count = 0
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? [false, true] : [true, false]
      for isOpen in order {
        let start = ContinuousClock.now
        if isOpen {
          let recording = try Recording(contentsOf: url)
          count = recording.count
          open.append(ContinuousClock.now - start)
        } else {
          lines = try self.countLines(url)
          raw.append(ContinuousClock.now - start)
        }
      }
    }
    guard count == actions, lines == actions + 2 else {
      print("  error: read \(count) actions and \(lines) lines, expected \(actions) and \(actions + 2)")
      exit(1)
    }
    let baseline = median(raw)
    let measured = median(open)
    // Each round's two measurements are side by side: the spread of their ratios shows how much
    // the machine moved during the run.
    let ratios = zip(open, raw).map { $0 / $1 }
    self.row("read + newline scan", baseline, per: actions)
    self.row("open + index", measured, per: actions)
    self.ratio(
      measured / baseline, goal: "≤ 1.5×", met: measured / baseline <= 1.5,
      note: rangeOfRounds(ratios)
    )
    print()
  }

  // MARK: - Seeking vs replaying from the start

  @MainActor
  static func seek(scratch: URL, actions: Int, walk: Int) throws {
    print("Timeline on a \(actions)-action todos recording (checkpoint every 100 actions)")
    let url = scratch.appendingPathComponent("seek.actionlog")
    let recordStart = ContinuousClock.now
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: Todos.State(), options: .init(syncPolicy: .never)
    )
    let store = Store(initialState: Todos.State()) {
      Todos().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    for action in self.todosScript(count: actions) { store.send(action) }
    try recorder.close()
    print("  (recorded through a Store in \(format(ContinuousClock.now - recordStart)))")
    let recording = try Recording(contentsOf: url)

    // The baseline: replaying every action from the initial state to the far end.
    let replayer = Replayer(recording: recording, reducer: Todos())
    let replayStart = ContinuousClock.now
    var state = try replayer.initialState()
    for step in 1...recording.count { try replayer.apply(step, to: &state) }
    let fromStart = ContinuousClock.now - replayStart

    // Seeking: the far end from a fresh timeline, then random steps.
    let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    let farStart = ContinuousClock.now
    try timeline.goto(recording.count)
    let farEnd = ContinuousClock.now - farStart
    guard timeline.state == state else {
      print("  error: the seek and the replay from the start disagree at step \(recording.count)")
      exit(1)
    }
    var generator = SplitMix64(seed: 1)
    var seeks: [Duration] = []
    for _ in 0..<200 {
      let step = Int.random(in: 0...recording.count, using: &generator)
      let start = ContinuousClock.now
      try timeline.goto(step)
      seeks.append(ContinuousClock.now - start)
    }
    seeks.sort()
    print("  \(pad("replay from the start"))\(pad(format(fromStart), 12))to step \(recording.count)")
    print("  \(pad("seek to the far end"))\(pad(format(farEnd), 12))fresh timeline, nearest checkpoint")
    self.ratio(fromStart / farEnd, goal: "≥ 1,000× faster", met: fromStart / farEnd >= 1_000)
    let median = seeks[seeks.count / 2]
    print("  \(pad("seek, random steps"))\(pad(format(median), 12))median of 200; p95 \(format(seeks[seeks.count * 95 / 100]))")
    print("  \(pad("median"))\(pad("", 12))goal ≤ 5 ms: \(median <= .milliseconds(5) ? "met" : "NOT MET")")

    // Memory, each in a fresh process so one cannot reuse what the other freed: the growth of
    // peak resident memory while walking every step of a stretch with a timeline, against
    // keeping every state of that stretch.
    let stretch = min(walk, recording.count)
    let timelineBytes = try self.measureInChild(["--memory-timeline", url.path, String(stretch)])
    let everyBytes = max(1, try self.measureInChild(["--memory-every", url.path, String(stretch)]))
    print("  \(pad("keep every state"))\(pad(megabytes(everyBytes) + " MB", 12))\(stretch + 1) states, peak resident growth")
    print("  \(pad("timeline"))\(pad(megabytes(timelineBytes) + " MB", 12))after walking the same \(stretch + 1) steps")
    let share = Double(timelineBytes) / Double(everyBytes)
    print("  \(pad("share"))\(pad(String(format: "%.1f%%", share * 100), 12))goal ≤ 5%: \(share <= 0.05 ? "met" : "NOT MET")")
    print()
  }

  /// Runs this program with `arguments` and returns the number it prints.
  static func measureInChild(_ arguments: [String]) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    if !FileManager.default.isExecutableFile(atPath: process.executableURL?.path ?? "") {
      process.executableURL = Bundle.main.executableURL
    }
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// The growth of peak resident memory, in a child: walking a timeline over `steps` steps, or
  /// keeping every state of them.
  @MainActor
  static func memoryChild(mode: String, path: String, steps: Int) throws {
    let recording = try Recording(contentsOf: URL(fileURLWithPath: path))
    let replayer = Replayer(recording: recording, reducer: Todos())
    var keep: [Todos.State] = []
    var timeline: Timeline<Todos>?
    let before = peakResidentBytes()
    if mode == "--memory-timeline" {
      let walker = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
      for step in 0...steps { try walker.goto(step) }
      timeline = walker
    } else {
      var current = try replayer.initialState()
      keep.reserveCapacity(steps + 1)
      keep.append(current)
      for step in 1...steps {
        try replayer.apply(step, to: &current)
        keep.append(current)
      }
    }
    print(max(0, peakResidentBytes() - before))
    withExtendedLifetime((keep, timeline)) {}
  }

  /// The process's peak resident memory (`VmHWM` in /proc/self/status).
  static func peakResidentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1_024
  }

  /// A writer for a todos log that does not sync, as benchmarks measure the writer, not the disk.
  static func todosWriter(_ url: URL) throws -> LogWriter {
    try LogWriter(
      url: url,
      header: LogHeader(
        feature: "todos", stateType: "Todos.State", actionType: "Todos.Action", startedAt: Date(),
        checkpointInterval: 100
      ),
      initialState: Todos.State(),
      options: .init(syncPolicy: .never)
    )
  }

  /// Writes a todos log of `actions` actions a microsecond apart, without checkpoints.
  static func writeTodosLog(_ url: URL, actions: Int) throws {
    let writer = try self.todosWriter(url)
    for (index, action) in self.todosScript(count: actions).enumerated() {
      writer.append(
        .action(
          seq: index + 1, time: .nanoseconds(index * 1_000), origin: .send, value: action,
          captured: CapturedValues()
        )
      )
    }
    try writer.close()
  }

  /// The baseline: read the file the way `Recording` does (memory-mapped) and count its lines.
  static func countLines(_ url: URL) throws -> Int {
    let data = try Data(contentsOf: url, options: .alwaysMapped)
    return data.withUnsafeBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return 0 }
      var lines = 0
      var offset = 0
      while offset < bytes.count,
        let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset)
      {
        lines += 1
        offset = base.distance(to: UnsafeRawPointer(newline)) + 1
      }
      return lines
    }
  }

  // MARK: - Printing

  static func row(_ label: String, _ duration: Duration, per count: Int) {
    print("  \(pad(label))\(pad(format(duration), 12))\(format(duration / count)) per action")
  }

  static func ratio(_ value: Double, goal: String, met: Bool, note: String? = nil) {
    print(
      "  \(pad("ratio"))\(pad(String(format: "%.2f×", value), 12))goal \(goal): \(met ? "met" : "NOT MET")"
        + (note.map { " (\($0))" } ?? "")
    )
  }
}

func median<Value: Comparable>(_ values: [Value]) -> Value {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// The lowest and highest of each round's ratio, as the figure's note.
func rangeOfRounds(_ ratios: [Double]) -> String {
  String(format: "rounds %.2f–%.2f×", ratios.min() ?? 0, ratios.max() ?? 0)
}

func pad(_ text: String, _ width: Int = 24) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func format(_ duration: Duration) -> String {
  let seconds = duration.seconds
  if seconds >= 1 { return String(format: "%.2f s", seconds) }
  if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
  if seconds >= 1e-6 { return String(format: "%.2f µs", seconds * 1e6) }
  return String(format: "%.0f ns", seconds * 1e9)
}

func megabytes(_ bytes: Int) -> String {
  String(format: "%.1f", Double(bytes) / 1_048_576)
}

extension Duration {
  var seconds: Double {
    let (seconds, attoseconds) = self.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
