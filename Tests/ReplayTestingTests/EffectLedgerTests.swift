import ActionLog
import ComposableArchitecture
import ConcurrencyExtras
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing
import TimeTravel

/// The counter, its fact request removed: the state stays what it was (the fact responses are
/// in the recording), but the request is no longer made.
struct CounterWithoutFactRequest: Reducer {
  func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    let effect = CounterFeature().reduce(into: &state, action: action)
    if case .factButtonTapped = action { return .none }
    return effect
  }
}

/// The todos, no longer scheduling their sort after a todo is completed.
struct TodosWithoutSort: Reducer {
  func reduce(into state: inout Todos.State, action: Todos.Action) -> Effect<Todos.Action> {
    let effect = Todos().reduce(into: &state, action: action)
    if case .todos(.element(_, .checkBoxToggled)) = action { return .none }
    return effect
  }
}

/// A recording says what each action's reducer returned; a replay whose reducer returns other
/// effects fails, even when every state agrees.
@Suite struct EffectLedgerTests {
  /// What `assertReplay` reports for `reducer` on a bundled recording.
  func failures<R: Reducer>(
    _ name: String, effects: EffectComparison = .compare, _ reducer: @escaping () -> R
  ) throws -> [String] where R.State: Decodable & Equatable, R.Action: Decodable {
    let messages = LockIsolated<[String]>([])
    try withKnownIssue(isIntermittent: true) {
      try assertReplay(bundledRecording(name), effects: effects, reducer: reducer)
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    return messages.value
  }

  @Test func theCountersFactRequestRemovedFailsWithTheEffects() throws {
    #expect(
      try self.failures("counter") { CounterWithoutFactRequest() } == [
        """
        counter.actionlog: today's reducer does not reproduce the recording.

        The replay's effects differ from the recording at step 3: today's reducer returns other \
        effects for the same action.

          Action at step 3 (+1.050s):
            CounterFeature.Action.factButtonTapped

          Effects:
            − run at CounterFeature.swift:57
            + none

          The states still agree at step 3: only what the reducer starts changed.

        (Recorded: −, Replayed: +)

        If the reducer is wrong, fix it. If the new behaviour is intended, record the session \
        again and commit the new recording.
        """
      ])
    #expect(try self.failures("counter", effects: .ignore) { CounterWithoutFactRequest() } == [])
  }

  @Test func todosThatNoLongerScheduleTheirSortFail() throws {
    let recording = try Recording(contentsOf: bundledRecording("todos"))
    let timeline = try Timeline(
      recording: recording, reducer: TodosWithoutSort(), feature: "todos")
    let divergence = try #require(try timeline.verify())
    let effects = try #require(divergence.effects)
    #expect(
      effects.description == """
        − cancellable(CancelID.todoCompletion, cancelInFlight, run at Todos.swift:86)
        + none
        """)
    #expect(divergence.diff == nil)
    // The first step that completes a todo, where the sort was scheduled.
    let firstToggle = try (1...timeline.count).first {
      guard case .todos(.element(_, .checkBoxToggled)) = try timeline.action(at: $0).action
      else { return false }
      return true
    }
    #expect(effects.step == firstToggle)
    #expect(try timeline.verify(effects: .ignore) == nil)
  }

  @Test func aRecordingWithoutALedgerComparesStatesOnly() throws {
    let legacy = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("legacy/todos-v1.actionlog"))
    #expect(!legacy.header.hasEffectLedger)
    let timeline = try Timeline(recording: legacy, reducer: TodosWithoutSort(), feature: "todos")
    #expect(try timeline.verify() == nil)
  }

  @Test func theLedgerRoundTripsEveryShape() throws {
    let shapes: [EffectShape] = [
      .none, .send, .run(CallSite(fileID: "Feature/File.swift", line: 12)),
      .merge([.send, .cancel(id: EffectID("CancelID.a"))]),
      .concatenate([.run(CallSite(fileID: "F/G.swift", line: 1)), .send]),
      .cancellable(id: EffectID("CancelID.b in rows[3]"), cancelInFlight: true, .send),
      .cancellable(id: EffectID("x"), cancelInFlight: false, .none),
    ]
    for shape in shapes {
      #expect(try EffectShape(ledgerJSON: shape.ledgerJSON) == shape, "\(shape)")
    }
    #expect(throws: EffectLedgerError.self) { try EffectShape(ledgerJSON: ["run": 3]) }
    #expect(throws: EffectLedgerError.self) { try EffectShape(ledgerJSON: "later") }
  }

  @Test func rerecordingWritesTodaysEffects() throws {
    let recording = try Recording(contentsOf: bundledRecording("counter"))
    let timeline = try Timeline(
      recording: recording, reducer: CounterWithoutFactRequest(), feature: "counter")
    let directory = TemporaryDirectory()
    let summary = try #require(try timeline.rerecord(to: directory.file()))
    // The fact requests are gone from the ledger; no state changed.
    let factSteps = try (1...recording.count).filter {
      guard case .factButtonTapped = try recording.action($0, as: CounterFeature.Action.self).action
      else { return false }
      return true
    }
    #expect(!factSteps.isEmpty)
    #expect(summary.changedEffects == factSteps)
    #expect(summary.changedCheckpoints == [])
    let rerecorded = try Recording(contentsOf: directory.file())
    #expect(try rerecorded.recordedEffects(ofAction: factSteps[0]) == nil)
    #expect(
      try Timeline(
        recording: rerecorded, reducer: CounterWithoutFactRequest(), feature: "counter"
      ).verify() == nil)
    // Today's counter, which still asks for facts, now differs from the re-recorded file.
    let divergence = try Timeline(
      recording: rerecorded, reducer: CounterFeature(), feature: "counter"
    ).verify()
    #expect(divergence?.effects?.step == factSteps[0])
  }

  @Test func rerecordingARecordingWithoutALedgerGivesItOne() throws {
    let legacy = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("legacy/todos-v3.actionlog"))
    let directory = TemporaryDirectory()
    _ = try legacy.export(
      to: directory.file("migrated.actionlog"),
      options: ExportOptions(schema: Todos.State.schema))
    let migrated = try Recording(contentsOf: directory.file("migrated.actionlog"))
    #expect(!migrated.header.hasEffectLedger)
    let timeline = try Timeline(recording: migrated, reducer: Todos(), feature: "todos")
    let summary = try #require(try timeline.rerecord(to: directory.file("ledger.actionlog")))
    #expect(summary.changedEffects == [])
    let withLedger = try Recording(contentsOf: directory.file("ledger.actionlog"))
    #expect(withLedger.header.hasEffectLedger)
    // The same ledger the recorder writes: every action's yields as in today's recording.
    let today = try Recording(contentsOf: bundledRecording("todos"))
    for step in 1...today.count {
      #expect(
        try withLedger.recordedEffects(ofAction: step) == today.recordedEffects(ofAction: step),
        "step \(step)")
    }
    #expect(
      try Timeline(recording: withLedger, reducer: TodosWithoutSort(), feature: "todos")
        .verify()?.effects != nil)
  }
}
