import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

extension ReplayBench {
  // One todo's own recording, cut out of the app's: replaying it with the row's reducer alone
  // against replaying the app's recording to the same steps (from the start to the row's last
  // action), in alternating rounds; and what cutting it out costs, against reading the app's
  // recording's states.

  @MainActor
  static func childRecording(scratch: URL, actions: Int, rounds: Int) throws {
    print(
      "Child's recording: one todo cut out of a todos recording of \(actions) actions"
        + " (median of \(rounds) alternating rounds)")
    let appURL = scratch.appendingPathComponent("child-app.actionlog")
    try self.record(Todos(), Todos.State(), self.todosScript(count: actions), to: appURL)
    let app = try Recording(contentsOf: appURL)
    let names = ChildRecording.Names(
      feature: "todo", stateType: recordedTypeName(Todo.State.self),
      actionType: recordedTypeName(Todo.Action.self))
    let childURL = scratch.appendingPathComponent("child.actionlog")
    func export() throws -> ChildRecording {
      try? FileManager.default.removeItem(at: childURL)
      return try ChildRecording.export(
        app, path: StatePath("todos[id: \(UUID(7))]"), to: childURL
      ) { _, _ in names }
    }
    var child = try export()
    let last = child.appSteps.last ?? 0
    func replay<R: Reducer>(_ reducer: R, _ recording: Recording, through step: Int) throws
    where R.State: Decodable, R.Action: Decodable {
      let replayer = Replayer(recording: recording, reducer: reducer)
      var state = try replayer.initialState()
      try replayer.batch {
        for seq in stride(from: 1, through: step, by: 1) { try replayer.apply(seq, to: &state) }
      }
    }
    var childTimes: [Duration] = []
    var appTimes: [Duration] = []
    for round in 0..<rounds {
      for isChild in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let start = ContinuousClock.now
        if isChild {
          try replay(Todo(), child.recording, through: child.recording.count)
        } else {
          try replay(Todos(), app, through: last)
        }
        let elapsed = ContinuousClock.now - start
        if isChild { childTimes.append(elapsed) } else { appTimes.append(elapsed) }
      }
    }
    let ratios = zip(childTimes, appTimes).map { $0 / $1 }
    print(
      "  todos[id: …7]: \(child.recording.count) of the app's \(last) steps up to its last"
        + " (\(child.recording.byteCount) bytes of \(app.byteCount))")
    self.row("the app's, to step \(last)", median(appTimes), per: last)
    self.row("the child's alone", median(childTimes), per: child.recording.count)
    self.ratio(
      median(ratios), goal: "< 1× the app's to the same steps", met: median(ratios) < 1,
      note: rangeOfRounds(ratios))

    // What cutting it out costs: against walking the app's recorded states once.
    var exports: [Duration] = []
    var walks: [Duration] = []
    for round in 0..<rounds {
      for isExport in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let start = ContinuousClock.now
        if isExport {
          child = try export()
        } else {
          var states = RecordedStates(app)
          for step in 0...app.count { _ = try states.state(after: step) }
        }
        let elapsed = ContinuousClock.now - start
        if isExport { exports.append(elapsed) } else { walks.append(elapsed) }
      }
    }
    let exportRatios = zip(exports, walks).map { $0 / $1 }
    self.row("reading every state", median(walks), per: app.count)
    self.row("cutting the child out", median(exports), per: app.count)
    // NB: No goal: it reads every state once, and the child's span again with its actions.
    self.figure(
      "ratio", String(format: "%.2f×", median(exportRatios)),
      "to reading every state, for information (\(rangeOfRounds(exportRatios)))")
    print()
  }
}
