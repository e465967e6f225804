import ActionLog
import ArgumentParser
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  // Seeking a timeline against replaying from the start, and its memory against keeping every
  // state.

  @MainActor
  static func seek(scratch: URL, actions: Int, walk: Int) throws {
    print("Timeline on a \(actions)-action todos recording (checkpoint every 100 actions)")
    let url = scratch.appendingPathComponent("seek.actionlog")
    let recordStart = ContinuousClock.now
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: Todos.State(), options: .init(syncPolicy: .never)
    )
    let store = self.todosStore(recordingTo: recorder)
    for action in self.todosScript(count: actions) { store.send(action) }
    try recorder.close()
    print("  (recorded through a Store in \(format(ContinuousClock.now - recordStart)))")
    let recording = try Recording(contentsOf: url)

    // The baseline: replaying every action from the initial state to the far end, with the
    // record codec and, before it, with Foundation's decoder (one round each: a full replay is
    // long).
    func replayAll(_ recording: Recording) throws -> (state: Todos.State, time: Duration) {
      let replayer = Replayer(recording: recording, reducer: Todos())
      let start = ContinuousClock.now
      var state = try replayer.initialState()
      for step in 1...recording.count { try replayer.apply(step, to: &state) }
      return (state, ContinuousClock.now - start)
    }
    let throughFoundation = try replayAll(Recording(contentsOf: url, codec: FoundationJSONCodec()))
    let (state, fromStart) = try replayAll(recording)
    guard throughFoundation.state == state else {
      print("  error: the replays through the two codecs disagree at step \(recording.count)")
      throw ExitCode.failure
    }

    // Seeking: the far end from a fresh timeline, then random steps.
    let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    let farStart = ContinuousClock.now
    try timeline.goto(recording.count)
    let farEnd = ContinuousClock.now - farStart
    guard timeline.state == state else {
      print("  error: the seek and the replay from the start disagree at step \(recording.count)")
      throw ExitCode.failure
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
    self.figure(
      "replay, Foundation", format(throughFoundation.time),
      "from the start to step \(recording.count), through JSONDecoder")
    self.figure(
      "replay from the start", format(fromStart),
      String(format: "%.2f× Foundation's; goal ≤ 2 s: ", throughFoundation.time / fromStart)
        + (fromStart <= .seconds(2) ? "met" : "NOT MET"))
    self.figure("seek to the far end", format(farEnd), "fresh timeline, nearest checkpoint")
    self.ratio(fromStart / farEnd, goal: "≥ 1,000× faster", met: fromStart / farEnd >= 1_000)
    let median = seeks[seeks.count / 2]
    let p95 = format(seeks[seeks.count * 95 / 100])
    self.figure("seek, random steps", format(median), "median of 200; p95 \(p95)")
    let met = median <= .milliseconds(5) ? "met" : "NOT MET"
    self.figure("median", "", "goal ≤ 5 ms: \(met)")

    // Memory, each in a fresh process so one cannot reuse what the other freed: the growth of
    // peak resident memory while walking every step of a stretch with a timeline, against
    // keeping every state of that stretch.
    let stretch = min(walk, recording.count)
    let steps = String(stretch)
    let timelineBytes = try self.measureInChild(["memory-child", "timeline", url.path, steps])
    let everyBytes = max(1, try self.measureInChild(["memory-child", "every", url.path, steps]))
    self.figure(
      "keep every state", megabytes(everyBytes) + " MB",
      "\(stretch + 1) states, peak resident growth"
    )
    self.figure(
      "timeline", megabytes(timelineBytes) + " MB", "after walking the same \(stretch + 1) steps"
    )
    let share = Double(timelineBytes) / Double(everyBytes)
    self.figure(
      "share", String(format: "%.1f%%", share * 100),
      "goal ≤ 5%: \(share <= 0.05 ? "met" : "NOT MET")"
    )
    try self.migrationCost(recording)
    print()
  }

  /// Replaying from the start with a migration step on every action and checkpoint, against the
  /// same replay with none: alternating rounds, the median ratio and its range.
  static func migrationCost(_ recording: Recording) throws {
    // One version more than the recording's, whose only step renames a case: a record that
    // holds the old name is parsed, walked and written back before it is decoded, and one that
    // does not is read as it is. Then the worst case: a step of your own code on every action
    // and checkpoint, which parses, walks and writes back each one.
    let current = Todos.State.schema
    for (label, step) in [
      ("one rename step", MigrationStep.renameCase("sortCompletedTodos", to: "sortCompleted")),
      ("one custom step", MigrationStep.custom("nothing", of: .actions) { _ in }),
    ] {
      let next = FeatureSchema(
        version: current.version + 1,
        migrations: current.migrations + [Migration(from: current.version, step)]
      )
      try self.migrationCost(recording, migrated: try recording.migrated(to: next), label: label)
    }
  }

  static func migrationCost(_ recording: Recording, migrated: Recording, label: String) throws {
    let steps = min(recording.count, 20_000)
    func replay(_ recording: Recording) throws -> Duration {
      let replayer = Replayer(recording: recording, reducer: Todos())
      let start = ContinuousClock.now
      var state = try replayer.initialState()
      for step in 1...steps { try replayer.apply(step, to: &state) }
      return ContinuousClock.now - start
    }
    var ratios: [Double] = []
    var plain: [Duration] = []
    var renamed: [Duration] = []
    for _ in 0..<5 {
      let without = try replay(recording)
      let with = try replay(migrated)
      plain.append(without)
      renamed.append(with)
      ratios.append(with / without)
    }
    ratios.sort()
    plain.sort()
    renamed.sort()
    self.figure("replay, no migration", format(plain[2]), "\(steps) steps, median of 5")
    self.figure("replay, \(label)", format(renamed[2]), "on every action and checkpoint")
    let median = ratios[2]
    self.ratio(
      median, goal: "≤ 1.5×", met: median <= 1.5,
      note: String(format: "rounds %.2f–%.2f×", ratios.first!, ratios.last!))
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
    let text = String(decoding: data, as: UTF8.self)
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// The growth of peak resident memory, in a child: walking a timeline over `steps` steps, or
  /// keeping every state of them.
  @MainActor
  static func memoryChild(mode: MemoryChild.Mode, path: String, steps: Int) throws {
    let recording = try Recording(contentsOf: URL(fileURLWithPath: path))
    let replayer = Replayer(recording: recording, reducer: Todos())
    var keep: [Todos.State] = []
    var timeline: Timeline<Todos>?
    let before = peakResidentBytes()
    if mode == .timeline {
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
}
