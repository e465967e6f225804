import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

extension ReplayBench {
  // A feature that says nothing of `Codable` against the same feature declaring it: the
  // writer's encoding, the decoder, and a replay from the start, on the todos script.

  @MainActor
  static func withoutCodable(scratch: URL, actions: Int, rounds: Int) throws {
    print(
      "Without Codable: the todos feature written with no Codable vs declaring it"
        + " (\(actions) actions, median of \(rounds) alternating rounds)")
    let script = self.todosScript(count: actions)
    let coded = self.todosStates(script: script, from: Todos.State())
    let plain = withDependencies {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    } operation: {
      var state = PlainTodos.State()
      return script.map { action in
        let plainAction = PlainTodos.Action(action)
        _ = PlainTodos().reduce(into: &state, action: plainAction)
        return (action: plainAction, state: state)
      }
    }
    let codec = CompactJSONCodec()
    // The same bytes either way: what the comparison rests on.
    for index in [0, actions / 2, actions - 1] {
      let same =
        try codec.encode(coded[index].state) == codec.encode(plain[index].state)
        && codec.encode(coded[index].action) == codec.encode(plain[index].action)
      precondition(same, "the two features' records differ at \(index)")
    }

    func encodeAll<A: Encodable, S: Encodable>(_ steps: [(action: A, state: S)]) throws -> Int {
      var bytes = 0
      for step in steps {
        bytes += try codec.encode(step.action).count + codec.encode(step.state).count
      }
      return bytes
    }
    try self.sideBySide(
      "writer's encoding", rounds: rounds, per: actions,
      codable: { _ = try encodeAll(coded) }, plain: { _ = try encodeAll(plain) })

    let actionBytes = try coded.map { try codec.encode($0.action) }
    func decodeAll<A: Decodable>(_ type: A.Type) throws {
      for bytes in actionBytes {
        _ = try bytes.withUnsafeBytes { try codec.decode(A.self, from: $0) }
      }
    }
    try self.sideBySide(
      "decoding actions", rounds: rounds, per: actions,
      codable: { try decodeAll(Todos.Action.self) },
      plain: { try decodeAll(PlainTodos.Action.self) })

    let codedURL = scratch.appendingPathComponent("coded.actionlog")
    let plainURL = scratch.appendingPathComponent("plain.actionlog")
    try self.record(Todos(), Todos.State(), script, to: codedURL)
    try self.record(
      PlainTodos(), PlainTodos.State(), script.map(PlainTodos.Action.init), to: plainURL)
    let codedRecording = try Recording(contentsOf: codedURL)
    let plainRecording = try Recording(contentsOf: plainURL)
    func replayAll<R: Reducer>(_ reducer: R, _ recording: Recording) throws
    where R.State: Decodable, R.Action: Decodable {
      let replayer = Replayer(recording: recording, reducer: reducer)
      var state = try replayer.initialState()
      try replayer.batch {
        for seq in 1...recording.count { try replayer.apply(seq, to: &state) }
      }
    }
    try self.sideBySide(
      "replay from the start", rounds: rounds, per: actions,
      codable: { try replayAll(Todos(), codedRecording) },
      plain: { try replayAll(PlainTodos(), plainRecording) })
    print()
  }

  @MainActor
  static func record<R: Reducer>(
    _ reducer: R, _ initialState: R.State, _ actions: [R.Action], to url: URL
  ) throws where R.State: Encodable & Sendable, R.Action: Encodable & Sendable {
    try? FileManager.default.removeItem(at: url)
    let recorder = try RecorderOf<R>(
      url: url, feature: "todos", initialState: initialState,
      startedAt: Date(timeIntervalSince1970: 0), elapsed: { .zero },
      options: .init(syncPolicy: .never))
    let store = Store(initialState: initialState) {
      reducer.recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    for action in actions { store.send(action) }
    try recorder.close()
  }

  /// Times `codable` and `plain` in alternating rounds, and prints both, the ratio and the
  /// goal (within 1.2× of the feature that declares `Codable`).
  private static func sideBySide(
    _ label: String, rounds: Int, per count: Int,
    codable: () throws -> Void, plain: () throws -> Void
  ) throws {
    var coded: [Duration] = []
    var plains: [Duration] = []
    for round in 0..<rounds {
      for isPlain in round.isMultiple(of: 2) ? [false, true] : [true, false] {
        let start = ContinuousClock.now
        try isPlain ? plain() : codable()
        let elapsed = ContinuousClock.now - start
        if isPlain { plains.append(elapsed) } else { coded.append(elapsed) }
      }
    }
    let ratios = zip(plains, coded).map { $0 / $1 }
    print("  \(label)")
    self.row("declaring Codable", median(coded), per: count)
    self.row("without Codable", median(plains), per: count)
    self.ratio(
      median(ratios), goal: "≤ 1.2× declaring Codable", met: median(ratios) <= 1.2,
      note: rangeOfRounds(ratios))
  }
}
