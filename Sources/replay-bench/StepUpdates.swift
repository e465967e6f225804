import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TimeTravel

extension ReplayBench {
  // What recording every step's change costs: the writer's throughput with step updates against
  // without, on the todos script and on a 1,000-todo state; and verifying every step against
  // checkpoints only.

  @MainActor
  static func stepUpdates(scratch: URL, actions: Int, bigActions: Int, rounds: Int) throws {
    print(
      "Step updates: the writer working out what each action changed, and verify at every step"
        + " (median of \(rounds) alternating rounds)")
    let todos = self.todosStates(script: self.todosScript(count: actions), from: Todos.State())
    try self.writerWithUpdates(
      "todos script", states: todos, scratch: scratch, rounds: rounds)
    // The same edits on 10 todos and on 1,000: what a step costs should follow what it changed,
    // not what the state holds.
    var perSecond: [Int: Double] = [:]
    for size in [10, 1_000] {
      var state = Todos.State()
      for index in 0..<size {
        state.todos.append(Todo.State(description: "todo \(index)", id: UUID(index)))
      }
      let edits = (0..<bigActions).map { index in
        Todos.Action.todos(
          .element(id: UUID((index * 37) % size), action: .textFieldChanged("edit \(index)")))
      }
      perSecond[size] = try self.writerWithUpdates(
        "\(size == 10 ? "10" : "1,000") todos",
        states: self.todosStates(script: edits, from: state),
        scratch: scratch, rounds: rounds)
    }
    let ratio = (perSecond[10] ?? 0) / max(perSecond[1_000] ?? 1, 1)
    self.figure(
      "10 vs 1,000 todos", String(format: "%.2f×", ratio),
      "goal ≤ 2×: " + (ratio <= 2 ? "met" : "NOT MET") + " (the cost follows the change)")
    try self.verifyEveryStep(scratch: scratch, actions: actions, rounds: rounds)
    print()
  }

  /// Each action of `script` with the state after it, from `initial`, effects left out.
  static func todosStates(
    script: [Todos.Action], from initial: Todos.State
  ) -> [(action: Todos.Action, state: Todos.State)] {
    var state = initial
    // NB: One generator for the whole script, whose ids count up as the script expects.
    return withDependencies {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    } operation: {
      script.map { action in
        _ = Todos().reduce(into: &state, action: action)
        return (action, state)
      }
    }
  }

  /// The writer's actions per second with step updates and without, alternating.
  @discardableResult
  static func writerWithUpdates(
    _ label: String, states: [(action: Todos.Action, state: Todos.State)], scratch: URL,
    rounds: Int
  ) throws -> Double {
    let url = scratch.appendingPathComponent("steps.actionlog")
    func write(updates: Bool) throws -> (Duration, Int) {
      try? FileManager.default.removeItem(at: url)
      let writer = try LogWriter(
        url: url,
        header: LogHeader(
          feature: "todos", stateType: "Todos.State", actionType: "Todos.Action",
          startedAt: Date(), checkpointInterval: 100, hasStepUpdates: updates),
        initialState: states.first?.state ?? Todos.State(),
        options: .init(syncPolicy: .never)
      )
      let start = ContinuousClock.now
      for (index, step) in states.enumerated() {
        writer.append(
          .action(
            seq: index + 1, time: .nanoseconds(index), origin: .send, value: step.action,
            captured: CapturedValues(), state: updates ? step.state : nil))
      }
      try writer.close()
      let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
      return (ContinuousClock.now - start, size)
    }
    var with: [Duration] = []
    var without: [Duration] = []
    var sizes = (with: 0, without: 0)
    for round in 0..<rounds {
      for updates in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let (time, size) = try write(updates: updates)
        if updates {
          with.append(time)
          sizes.with = size
        } else {
          without.append(time)
          sizes.without = size
        }
      }
    }
    let perSecond = Double(states.count) / median(with).seconds
    let withoutPerSecond = Double(states.count) / median(without).seconds
    self.figure(
      "\(label), without", format(median(without)),
      String(format: "%.0f actions/s, %@ MB", withoutPerSecond, megabytes(sizes.without)))
    self.figure(
      "\(label), with updates", format(median(with)),
      String(
        format: "%.0f actions/s, %@ MB (%.2f× the size)", perSecond, megabytes(sizes.with),
        Double(sizes.with) / Double(max(sizes.without, 1))))
    let ratios = zip(with, without).map { $0 / $1 }
    self.ratio(
      median(ratios), goal: "≤ 1.5× without step updates", met: median(ratios) <= 1.5,
      note: rangeOfRounds(ratios))
    return perSecond
  }

  /// `verify` at every step against checkpoints only, on a recorded todos session.
  @MainActor
  static func verifyEveryStep(scratch: URL, actions: Int, rounds: Int) throws {
    let url = scratch.appendingPathComponent("verify-steps.actionlog")
    try? FileManager.default.removeItem(at: url)
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: Todos.State(),
      options: LogWriter.Options(syncPolicy: .never))
    let store = self.todosStore(recordingTo: recorder)
    for action in self.todosScript(count: actions) { store.send(action) }
    try recorder.close()
    let timeline = try Timeline(
      recording: try Recording(contentsOf: url), reducer: Todos(), feature: "todos")
    var every: [Duration] = []
    var checkpoints: [Duration] = []
    var ratios: [Double] = []
    for round in 0..<rounds {
      var pair: [Bool: Duration] = [:]
      for everyStep in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let start = ContinuousClock.now
        let divergence = try timeline.verify(everyStep: everyStep)
        precondition(divergence == nil, "the bench's own recording does not verify")
        pair[everyStep] = ContinuousClock.now - start
      }
      every.append(pair[true]!)
      checkpoints.append(pair[false]!)
      ratios.append(pair[true]! / pair[false]!)
    }
    self.row("verify, checkpoints only", median(checkpoints), per: actions)
    self.row("verify, every step", median(every), per: actions)
    let ratio = median(ratios)
    self.ratio(ratio, goal: "≤ 1.50×", met: ratio <= 1.5, note: rangeOfRounds(ratios))
  }
}
