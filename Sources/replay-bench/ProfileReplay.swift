import ActionLog
import ArgumentParser
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

/// `replay-bench profile-replay FILE [STEPS]`: where a replay step's time goes, for a profiler
/// and for the figures: decoding the actions, replaying them decoded, and the reducer alone.
struct ProfileReplay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replay a todos log in parts: decoding, replaying decoded actions, the reducer alone."
  )

  @Argument(help: "A todos recording.")
  var path: String

  @Argument(help: "How many steps from the start (all by default).")
  var steps: Int?

  @MainActor func run() async throws {
    let recording = try Recording(contentsOf: URL(fileURLWithPath: self.path))
    let steps = min(self.steps ?? recording.count, recording.count)
    let replayer = Replayer(recording: recording, reducer: Todos())

    if ProcessInfo.processInfo.environment["PROFILE_ONLY_REPLAY"] != nil {
      for _ in 1...5 {
        let start = ContinuousClock.now
        var state = try replayer.initialState()
        try replayer.replay(from: 1, through: steps, on: &state)
        ReplayBench.row("replay from the start", ContinuousClock.now - start, per: steps)
      }
      return
    }
    var start = ContinuousClock.now
    let actions = try (1...steps).map { try recording.action($0, as: Todos.Action.self) }
    let decoding = ContinuousClock.now - start
    start = ContinuousClock.now
    let read = recording.actionReader(as: Todos.Action.self)
    let readActions = try (1...steps).map { try read($0) }
    let reading = ContinuousClock.now - start
    precondition(readActions.map(\.seq) == actions.map(\.seq))
    start = ContinuousClock.now
    var runActions: [RecordedAction<Todos.Action>] = []
    runActions.reserveCapacity(steps)
    for part in stride(from: 1, through: steps, by: 16) {
      for result in recording.actions(part...min(part + 15, steps), as: Todos.Action.self) {
        runActions.append(try result.get())
      }
    }
    let readingRuns = ContinuousClock.now - start
    precondition(runActions.map(\.seq) == actions.map(\.seq))

    start = ContinuousClock.now
    var replayed = try replayer.initialState()
    for action in actions { replayer.apply(action, to: &replayed) }
    let replaying = ContinuousClock.now - start

    // The same in a batch, as a timeline replays: the dependencies installed once.
    if ProcessInfo.processInfo.environment["PROFILE_ONLY_BATCH"] != nil {
      for _ in 1...5 {
        start = ContinuousClock.now
        var state = try replayer.initialState()
        replayer.batch {
          for action in actions { replayer.apply(action, to: &state) }
        }
        ReplayBench.row(
          "replay decoded actions in a batch", ContinuousClock.now - start, per: steps)
      }
      return
    }
    start = ContinuousClock.now
    var batched = try replayer.initialState()
    replayer.batch {
      for action in actions { replayer.apply(action, to: &batched) }
    }
    let batching = ContinuousClock.now - start

    // The reducer with nothing around each step: dependencies set once for the whole run.
    func reduceAlone() throws -> (Todos.State, Duration) {
      let start = ContinuousClock.now
      var reduced = try replayer.initialState()
      withDependencies {
        $0.uuid = .incrementing
        $0.continuousClock = ImmediateClock()
      } operation: {
        let reducer = Todos()
        for action in actions { _ = reducer.reduce(into: &reduced, action: action.action) }
      }
      return (reduced, ContinuousClock.now - start)
    }
    if ProcessInfo.processInfo.environment["PROFILE_ONLY_ALONE"] != nil {
      for _ in 1...5 { ReplayBench.row("reducer alone", try reduceAlone().1, per: steps) }
      return
    }
    let (reduced, reducing) = try reduceAlone()

    // A search for a breakpoint that matches nothing, over the whole recording: alone (it only
    // decodes), and with a watchpoint that never fires (it replays every step).
    if ProcessInfo.processInfo.environment["PROFILE_ONLY_VERIFY"] != nil {
      try Self.profileVerify(path: self.path, steps: steps)
      return
    }
    if ProcessInfo.processInfo.environment["PROFILE_ONLY_WATCH"] != nil {
      let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
      try timeline.goto(min(50, recording.count))
      start = ContinuousClock.now
      _ = try timeline.continueForward(
        watching: [StatePath("todos[0].isComplete")], breakpoints: [])
      ReplayBench.row("continue, watching a value", ContinuousClock.now - start, per: steps)
      return
    }
    let never = ActionBreakpoint("noSuchCase")
    let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    start = ContinuousClock.now
    _ = try timeline.continueForward(watching: [], breakpoints: [never])
    let searching = ContinuousClock.now - start
    try timeline.goto(0)
    start = ContinuousClock.now
    _ = try timeline.continueForward(watching: [StatePath("noSuchField")], breakpoints: [never])
    let searchingAndWatching = ContinuousClock.now - start
    // A watchpoint on a value that is there and never changes: read and compared every step.
    try timeline.goto(min(50, recording.count))
    start = ContinuousClock.now
    _ = try timeline.continueForward(watching: [StatePath("todos[0].isComplete")], breakpoints: [])
    let watching = ContinuousClock.now - start

    ReplayBench.row("decode", decoding, per: steps)
    ReplayBench.row("  by a reader of the type", reading, per: steps)
    ReplayBench.row("  16 at a time", readingRuns, per: steps)
    ReplayBench.row("replay decoded actions", replaying, per: steps)
    ReplayBench.row("  in a batch", batching, per: steps)
    ReplayBench.row("reducer alone", reducing, per: steps)
    ReplayBench.row("continue, breakpoint", searching, per: recording.count)
    ReplayBench.row("continue, + watchpoint", searchingAndWatching, per: recording.count)
    ReplayBench.row("continue, watching a value", watching, per: max(1, recording.count - 50))
    if replayed != reduced { print("  (the reducer alone ended in another state)") }
    if replayed != batched { print("  (the batch ended in another state)") }
  }

  /// `verify` at every step of a recording made through a store from the todos script, as an
  /// app records: with step updates, compared at every step.
  @MainActor
  static func profileVerify(path: String, steps: Int) throws {
    // NB: Recorded through a store, as an app records: with step updates, compared at every
    // step.
    let url = URL(fileURLWithPath: path + ".recorded")
    try? FileManager.default.removeItem(at: url)
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: Todos.State(),
      options: .init(syncPolicy: .never))
    let store = ReplayBench.todosStore(recordingTo: recorder)
    for action in ReplayBench.todosScript(count: steps) { store.send(action) }
    try recorder.close()
    let recorded = try Recording(contentsOf: url)
    let timeline = try Timeline(recording: recorded, reducer: Todos(), feature: "todos")
    for _ in 1...3 {
      let start = ContinuousClock.now
      let divergence = try timeline.verify()
      precondition(divergence == nil, "the recording does not verify")
      ReplayBench.row("verify, every step", ContinuousClock.now - start, per: steps)
    }
  }
}
