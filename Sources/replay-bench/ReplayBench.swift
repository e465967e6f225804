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

/// Measures what recording and replay cost, each figure side by side with its baseline in the
/// same run, and prints the ratio and the goal. One file per measurement: `StoreSend.swift`,
/// `FieldRecording.swift`, `MacroSend.swift`, `StepUpdates.swift`, `HTMLPage.swift`,
/// `WriterThroughput.swift`, `OpenAndIndex.swift`, `Seek.swift`.
@main
struct ReplayBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay-bench",
    abstract: "Measure what recording and replay cost, each figure beside its baseline.",
    discussion: """
      Build it in release mode: Tools/bench does. Each figure is printed with its baseline, \
      measured side by side in the same run, the ratio, and the goal.

      Examples:
        $ replay-bench
        $ replay-bench --quick --only timeline
        $ replay-bench profile-send 200000 --recording /tmp/todos.actionlog
      """,
    subcommands: [
      Measure.self, ProfileSend.self, ProfileOpen.self, ProfileReplay.self, WriteLog.self,
      MemoryChild.self, RollingMemoryChild.self,
    ],
    defaultSubcommand: Measure.self
  )
}

/// The measurements, one section at a time.
enum Section: String, CaseIterable, ExpressibleByArgument {
  case send, sites, field, macros, steps, overload, writer, open, timeline, diff, decode, html
  case codable, shapes, child, dap, check
}

/// `replay-bench [--quick] [--only SECTION]`: every figure.
struct Measure: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print every figure (the default)."
  )

  @Flag(help: "Smaller sizes, for a quick look.")
  var quick = false

  @Option(help: "Run one section: \(Section.allCases.map(\.rawValue).joined(separator: ", ")).")
  var only: Section?

  func run() async throws {
    let quick = self.quick
    let only = self.only
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }

    #if DEBUG
      print("warning: this is a debug build; figures are meaningful only in release (Tools/bench)")
    #endif
    print("replay-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
    func runs(_ section: Section) -> Bool { only == nil || only == section }
    try await MainActor.run {
      if runs(.send) {
        try ReplayBench.storeSend(
          scratch: scratch, sends: quick ? 2_000 : 20_000, rounds: quick ? 3 : 15
        )
      }
      if runs(.codable) {
        try ReplayBench.withoutCodable(
          scratch: scratch, actions: quick ? 2_000 : 20_000, rounds: quick ? 3 : 11)
      }
      if runs(.shapes) {
        try ReplayBench.reflectedShapes(values: quick ? 2_000 : 20_000, rounds: quick ? 3 : 11)
      }
      if runs(.check) {
        try ReplayBench.checkAtScale(
          scratch: scratch, recordings: quick ? 200 : 2_000, rounds: quick ? 3 : 5)
      }
      if runs(.dap) {
        try ReplayBench.debugAdapter(
          scratch: scratch, distance: quick ? 10_000 : 100_000, todos: 1_000,
          rounds: quick ? 3 : 7)
      }
      if runs(.child) {
        try ReplayBench.childRecording(
          scratch: scratch, actions: quick ? 2_000 : 20_000, rounds: quick ? 3 : 11)
      }
      if runs(.sites) {
        try ReplayBench.callSites(
          scratch: scratch, sends: quick ? 2_000 : 20_000, rounds: quick ? 3 : 15
        )
      }
      if runs(.field) {
        try ReplayBench.fieldSend(
          scratch: scratch, sends: quick ? 4_000 : 20_000, rounds: quick ? 3 : 15
        )
      }
      if runs(.html) {
        try ReplayBench.htmlPage(
          scratch: scratch, actions: quick ? 10_000 : 100_000, rounds: quick ? 1 : 3)
      }
      if runs(.macros) {
        ReplayBench.macroSend(sends: quick ? 5_000 : 50_000, rounds: quick ? 3 : 15)
      }
      if runs(.steps) {
        try ReplayBench.stepUpdates(
          scratch: scratch, actions: quick ? 2_000 : 20_000, bigActions: quick ? 200 : 2_000,
          rounds: quick ? 3 : 7)
      }
      if runs(.overload) {
        try ReplayBench.overload(scratch: scratch, sends: quick ? 100_000 : 1_000_000)
      }
      if runs(.writer) {
        try ReplayBench.writerThroughput(
          scratch: scratch, actions: quick ? 20_000 : 200_000, rounds: quick ? 3 : 5)
      }
      if runs(.open) {
        try ReplayBench.openAndIndex(scratch: scratch, actions: quick ? 50_000 : 1_000_000)
      }
      if runs(.decode) {
        try ReplayBench.decode(actions: quick ? 20_000 : 200_000, rounds: quick ? 3 : 9)
      }
      if runs(.diff) {
        try ReplayBench.diff(todos: 1_000, rounds: quick ? 5 : 21)
      }
      if runs(.timeline) {
        try ReplayBench.seek(
          scratch: scratch, actions: quick ? 20_000 : 1_000_000, walk: quick ? 5_000 : 100_000
        )
      }
    }
  }
}

/// `replay-bench profile-send N`: only sends N todos actions to a store, for a profiler.
struct ProfileSend: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Send todos actions to a store, and nothing else: for a profiler."
  )

  @Argument(help: "How many actions to send.")
  var count: Int

  @Option(help: "Record them to this file.")
  var recording: String?

  @Flag(help: "With --recording: the writer encodes nothing until the end.")
  var writerIdle = false

  @Flag(help: "With --recording: without step updates.")
  var withoutUpdates = false

  func run() async throws {
    let (count, path) = (self.count, self.recording)
    let mode: ReplayBench.Mode = self.writerIdle ? .enqueueOnly : .concurrent
    let stepUpdates = !self.withoutUpdates
    try await MainActor.run {
      let recorder = try path.map { path in
        try RecorderOf<Todos>(
          url: URL(fileURLWithPath: path), feature: "todos", initialState: Todos.State(),
          stepUpdates: stepUpdates, options: mode.options
        )
      }
      let store = ReplayBench.todosStore(recordingTo: recorder)
      let script = ReplayBench.todosScript(count: count)
      let start = ContinuousClock.now
      for action in script { store.send(action) }
      let sending = ContinuousClock.now - start
      try recorder?.close()
      print(
        "\(store.todos.count) todos; sending took \(format(sending)), "
          + "\(format(sending / count)) per action"
      )
    }
  }
}

/// `replay-bench profile-open FILE`: only opens a log, for a profiler.
struct ProfileOpen: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Open a log twenty times, and read it as often with a newline scan, in turns."
  )

  @Argument(help: "The log to open.")
  var file: String

  func run() throws {
    let url = URL(fileURLWithPath: self.file)
    let actions = try Recording(contentsOf: url).count
    try ReplayBench.compareOpen(url, actions: actions, rounds: 20)
  }
}

/// `replay-bench write-log FILE N`: a log to profile with.
struct WriteLog: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a todos log of N actions, without checkpoints, to profile with."
  )

  @Argument(help: "Where to write it; the file must not exist.")
  var file: String

  @Argument(help: "How many actions.")
  var count: Int

  func run() throws {
    try ReplayBench.writeTodosLog(URL(fileURLWithPath: self.file), actions: self.count)
  }
}

/// `replay-bench memory-child MODE FILE STEPS`: a memory measurement, in a process of its own.
struct MemoryChild: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the growth of peak resident memory over STEPS steps of a recording.",
    shouldDisplay: false
  )

  /// What the child keeps in memory.
  enum Mode: String, ExpressibleByArgument {
    /// A timeline walked over the steps.
    case timeline
    /// Every state of the steps.
    case every
  }

  @Argument(help: "timeline or every.")
  var mode: Mode

  @Argument(help: "The recording.")
  var file: String

  @Argument(help: "How many steps.")
  var steps: Int

  func run() async throws {
    let (mode, file, steps) = (self.mode, self.file, self.steps)
    try await MainActor.run {
      try ReplayBench.memoryChild(mode: mode, path: file, steps: steps)
    }
  }
}
