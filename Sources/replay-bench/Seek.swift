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

    // The limit: the reducer alone over the same actions, already decoded, with the same
    // dependencies, its effects dropped. Each figure beside it is measured in the same run.
    let actionsDecoded = try (1...recording.count).map {
      try recording.action($0, as: Todos.Action.self).action
    }
    func reducerAlone(from state: Todos.State, _ range: ClosedRange<Int>) -> Todos.State {
      var state = state
      withDependencies {
        $0.uuid = .incrementing
        $0.continuousClock = ImmediateClock()
      } operation: {
        let reducer = Todos()
        for step in range { _ = reducer.reduce(into: &state, action: actionsDecoded[step - 1]) }
      }
      return state
    }
    func replayAll(_ recording: Recording) throws -> Todos.State {
      let replayer = Replayer(recording: recording, reducer: Todos())
      var state = try replayer.initialState()
      try replayer.replay(from: 1, through: recording.count, on: &state)
      return state
    }
    let rounds = recording.count >= 500_000 ? 3 : 5
    var replayed = Todos.State()
    let fromStart = try self.sideBySideWithLimit(
      "replay from the start", rounds: rounds, per: recording.count, goal: 1.3,
      limit: { _ = reducerAlone(from: Todos.State(), 1...recording.count) },
      measured: { replayed = try replayAll(recording) })
    let throughFoundation = try Recording(contentsOf: url, codec: FoundationJSONCodec())
    let foundationStart = ContinuousClock.now
    let foundationState = try replayAll(throughFoundation)
    let foundationTime = ContinuousClock.now - foundationStart
    guard foundationState == replayed else {
      print("  error: the replays through the two codecs disagree at step \(recording.count)")
      throw ExitCode.failure
    }
    self.figure(
      "through JSONDecoder", format(foundationTime),
      String(
        format: "the same replay decoding with Foundation: %.2f× slower, for information",
        foundationTime / fromStart))

    // verify at every step: the replay and the comparison with every recorded state.
    let verifying = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    _ = try self.sideBySideWithLimit(
      "verify, every step", rounds: rounds, per: recording.count, goal: 1.3,
      limit: { _ = reducerAlone(from: Todos.State(), 1...recording.count) },
      measured: {
        let divergence = try verifying.verify()
        precondition(divergence == nil, "the bench's recording does not verify")
      })

    // A watch search over every step after the todos are added: a value that never changes
    // after them, so it goes to the end.
    let searching = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    let added = 50
    try searching.goto(added)
    let fromAdded = searching.state
    _ = try self.sideBySideWithLimit(
      "watch search, every step", rounds: rounds, per: recording.count - added, goal: 1.3,
      limit: { _ = reducerAlone(from: fromAdded, (added + 1)...recording.count) },
      measured: {
        try searching.goto(added)
        let found = try searching.search(
          forward: true, watching: [StatePath("todos[0].isComplete")], breakpoints: [],
          isCancelled: { false })
        precondition(found == nil, "the watched value changed")
      })

    // goto across a checkpoint interval: from a checkpoint's state to the step before the next,
    // against the reducer alone over the same actions from the same state.
    let interval = recording.header.checkpointInterval
    let checkpoints = Array(recording.checkpoints.prefix(200))
    var checkpointStates: [Int: Todos.State] = [:]
    for checkpoint in checkpoints {
      checkpointStates[checkpoint] = try recording.checkpoint(
        after: checkpoint, as: Todos.State.self)
    }
    let crossing = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    _ = try self.sideBySideWithLimit(
      "goto across an interval", rounds: rounds, per: checkpoints.count * (interval - 1),
      goal: 1.3,
      limit: {
        for checkpoint in checkpoints where checkpoint + interval - 1 <= recording.count {
          _ = reducerAlone(
            from: checkpointStates[checkpoint]!, (checkpoint + 1)...(checkpoint + interval - 1))
        }
      },
      measured: {
        // NB: Targets a whole interval apart: each starts from its checkpoint, or from the last
        // target, one interval back; nothing computed nearer.
        try crossing.goto(0)
        for checkpoint in checkpoints where checkpoint + interval - 1 <= recording.count {
          try crossing.goto(checkpoint + interval - 1)
        }
      })

    try self.seekFigures(
      recording, replayed: replayed, fromStart: fromStart, reducerAlone: reducerAlone)
    try self.memoryFigures(url, walk: min(walk, recording.count))
    try self.migrationCost(recording)
    print()
  }

  /// Seeking: the far end from a fresh timeline, against random steps and their limit.
  @MainActor
  private static func seekFigures(
    _ recording: Recording, replayed: Todos.State, fromStart: Duration,
    reducerAlone: (Todos.State, ClosedRange<Int>) -> Todos.State
  ) throws {
    let interval = recording.header.checkpointInterval
    let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    let farStart = ContinuousClock.now
    try timeline.goto(recording.count)
    let farEnd = ContinuousClock.now - farStart
    guard timeline.state == replayed else {
      print("  error: the seek and the replay from the start disagree at step \(recording.count)")
      throw ExitCode.failure
    }
    var generator = SplitMix64(seed: 1)
    var seeks: [Duration] = []
    var farEnds: [Duration] = []
    var limits: [Duration] = []
    for _ in 0..<200 {
      let step = Int.random(in: 0...recording.count, using: &generator)
      let start = ContinuousClock.now
      try timeline.goto(step)
      seeks.append(ContinuousClock.now - start)
      // What no seek can go below: the checkpoint before the step decoded, and the reducer alone
      // over the actions from there.
      let limitStart = ContinuousClock.now
      let checkpoint = step / interval * interval
      let from =
        checkpoint == 0
        ? Todos.State() : try recording.checkpoint(after: checkpoint, as: Todos.State.self)
      if step > checkpoint { _ = reducerAlone(from, (checkpoint + 1)...step) }
      limits.append(ContinuousClock.now - limitStart)
      // The far end again, from a fresh timeline, beside it.
      let fresh = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
      let farAgain = ContinuousClock.now
      try fresh.goto(recording.count)
      farEnds.append(ContinuousClock.now - farAgain)
    }
    self.figure("seek to the far end", format(median(farEnds)), "fresh timeline, median of 200")
    self.ratio(
      fromStart / farEnd, goal: "≥ 1,000× faster than from the start",
      met: fromStart / farEnd >= 1_000)
    let sorted = seeks.sorted()
    let p95 = format(sorted[sorted.count * 95 / 100])
    self.figure("seek, random steps", format(median(seeks)), "median of 200; p95 \(p95)")
    let seekRatio = median(seeks) / median(farEnds)
    self.ratio(seekRatio, goal: "≤ 2× the far end", met: seekRatio <= 2)
    self.figure(
      "  its limit", format(median(limits)),
      "the checkpoint before each step decoded, and the reducer alone from there")
    let limitRatio = median(seeks) / median(limits)
    self.ratio(limitRatio, goal: "≤ 1.3× its limit", met: limitRatio <= 1.3)

  }

  /// Memory, each in a fresh process so one cannot reuse what the other freed: the growth of
  /// peak resident memory while walking every step of a stretch with a timeline, against
  /// keeping every state of that stretch.
  private static func memoryFigures(_ url: URL, walk stretch: Int) throws {
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

  /// Times `limit` and `measured` in alternating rounds; prints both, the median of the rounds'
  /// ratios against `goal` and their range; returns `measured`'s median.
  @discardableResult
  static func sideBySideWithLimit(
    _ label: String, rounds: Int, per count: Int, goal: Double,
    limit: () throws -> Void, measured: () throws -> Void
  ) throws -> Duration {
    var limits: [Duration] = []
    var measures: [Duration] = []
    for round in 0..<rounds {
      for isLimit in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let start = ContinuousClock.now
        try isLimit ? limit() : measured()
        let elapsed = ContinuousClock.now - start
        if isLimit { limits.append(elapsed) } else { measures.append(elapsed) }
      }
    }
    let ratios = zip(measures, limits).map { $0 / $1 }
    print("  \(label)")
    self.row("the reducer alone", median(limits), per: count)
    self.row(label, median(measures), per: count)
    self.ratio(
      median(ratios), goal: String(format: "≤ %.1f× the reducer alone", goal),
      met: median(ratios) <= goal, note: rangeOfRounds(ratios))
    return median(measures)
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
