// NB: Over 400 lines on purpose: the recorder's behaviours, each over a short recording read
// back whole.

import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A feature whose reducer reads `uuid`, `date` and the random number generator.
struct Journal: Reducer {
  struct State: Codable, Equatable, Sendable {
    var entries: [Entry] = []
  }
  struct Entry: Codable, Equatable, Sendable {
    var id: UUID
    var date: Date
    var mood: Int
    var text: String
  }
  @CasePathable
  enum Action: Codable, Equatable, Sendable {
    case write(String)
    case clear
  }
  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .write(text):
      let mood = self.withRandomNumberGenerator { Int.random(in: 1...5, using: &$0) }
      state.entries.append(Entry(id: self.uuid(), date: self.now, mood: mood, text: text))
    case .clear:
      state.entries.removeAll()
    }
    return .none
  }
}

@MainActor
@Suite struct RecorderTests {
  @Test func recordedDependencyValuesReproduceEveryCheckpoint() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Journal>(
      url: url, feature: "journal", initialState: Journal.State(), checkpointInterval: 3
    )
    // Live dependencies: random UUIDs, the real date, the system random number generator.
    let store = withDependencies {
      $0.context = .live
    } operation: {
      Store(initialState: Journal.State()) {
        Journal().recording(to: recorder)
      }
    }
    for index in 1...10 {
      store.send(index == 7 ? .clear : .write("entry \(index)"))
    }
    try recorder.close()

    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 10)
    #expect(recording.checkpoints == [3, 6, 9, 10])
    let first = try recording.action(1, as: Journal.Action.self)
    #expect(first.captured["uuid"].count == 1)
    #expect(first.captured["date"].count == 1)
    #expect(first.captured["random"].isEmpty == false)

    let replayer = Replayer(recording: recording, reducer: Journal())
    var state = try replayer.initialState()
    for seq in 1...recording.count {
      let replayed = try replayer.apply(seq, to: &state)
      #expect(replayed.isFaithful)
      if recording.checkpoints.contains(seq) {
        #expect(
          state == (try recording.checkpoint(after: seq, as: Journal.State.self)), "step \(seq)")
      }
    }
    #expect(state == store.state)
    #expect(state.entries.map(\.text) == ["entry 8", "entry 9", "entry 10"])
    #expect(
      state.entries.first?.id.uuidString
        == (try recording.action(8, as: Journal.Action.self)).captured["uuid"].first)
  }

  @Test func readsAreRecordedAfterATestStoreChangesItsDependencies() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Journal>(
      url: url, feature: "journal", initialState: Journal.State())
    let store = TestStore(initialState: Journal.State()) {
      Journal().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .constant(UUID(1))
      $0.date.now = Date(timeIntervalSince1970: 1)
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SplitMix64(seed: 3))
    }
    store.exhaustivity = .off
    await store.send(.write("before"))
    store.dependencies.uuid = .constant(UUID(2))
    store.dependencies.date.now = Date(timeIntervalSince1970: 2)
    await store.send(.write("after"))
    try recorder.close()

    let recording = try Recording(contentsOf: url)
    let before = try recording.action(1, as: Journal.Action.self).captured
    let after = try recording.action(2, as: Journal.Action.self).captured
    #expect(before["uuid"] == [UUID(1).uuidString])
    #expect(after["uuid"] == [UUID(2).uuidString])
    #expect(
      after["date"] == [String(Date(timeIntervalSince1970: 2).timeIntervalSinceReferenceDate)])
    #expect(after["random"].count == before["random"].count)
    #expect(try Replayer(recording: recording, reducer: Journal()).state(after: 2) == store.state)
  }

  @Test func replayFromACheckpointMatchesReplayFromTheStart() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Journal>(
      url: url, feature: "journal", initialState: Journal.State(), checkpointInterval: 4
    )
    let store = Store(initialState: Journal.State()) {
      Journal().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date.now = Date(timeIntervalSince1970: 1_000)
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SplitMix64(seed: 7))
    }
    for index in 1...9 { store.send(.write("\(index)")) }
    try recorder.close()

    let replayer = Replayer(recording: try Recording(contentsOf: url), reducer: Journal())
    var fromStart = try replayer.initialState()
    for seq in 1...9 { try replayer.apply(seq, to: &fromStart) }
    #expect(try replayer.state(after: 9) == fromStart)
    #expect(try replayer.state(after: 6).entries.count == 6)
  }

  @Test func originsNameTheActionWhoseEffectSentThem() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<CounterFeature>(
      url: url, feature: "counter", initialState: CounterFeature.State())
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a fine number." }
    }
    store.send(.incrementButtonTapped)
    #expect(await finishes(store.send(.factButtonTapped)))
    store.send(.incrementButtonTapped)
    try recorder.close()

    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 4)
    #expect((1...4).map(recording.origin(ofAction:)) == [.send, .send, .effect(parent: 2), .send])
    #expect(
      try recording.action(3, as: CounterFeature.Action.self).action
        == .factResponse("1 is a fine number."))
    // The final checkpoint, written at close, holds the state the store ended with.
    #expect(recording.checkpoints == [4])
    #expect(try recording.checkpoint(after: 4, as: CounterFeature.State.self) == store.state)
  }

  @Test func actionsFromManyConcurrentEffectsAreRecordedOnceInOrder() async throws {
    struct Pinger: Reducer {
      struct State: Codable, Equatable, Sendable {
        var pings: [Int] = []
      }
      enum Action: Codable, Equatable, Sendable {
        case start
        case ping(Int)
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .merge(
            (0..<50).map { effect in
              .run { send in
                for index in 0..<20 {
                  await send(.ping(effect * 100 + index))
                  if index.isMultiple(of: 5) { await Task.yield() }
                }
              }
            }
          )
        case let .ping(value):
          state.pings.append(value)
          return .none
        }
      }
    }
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Pinger>(
      url: url, feature: "pinger", initialState: Pinger.State(), checkpointInterval: 250
    )
    let store = Store(initialState: Pinger.State()) {
      Pinger().recording(to: recorder)
    }
    #expect(await finishes(store.send(.start)))
    try recorder.close()

    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 1_001)
    var recorded: [Int] = []
    // NB: Not `2...recording.count`: a recording cut short must fail the test, not trap.
    for seq in stride(from: 2, through: recording.count, by: 1) {
      let action = try recording.action(seq, as: Pinger.Action.self)
      #expect(action.origin == .effect(parent: 1))
      if case let .ping(value) = action.action { recorded.append(value) }
    }
    #expect(recorded == store.state.pings)
    #expect(Set(recorded).count == 1_000)
  }

  @Test func unencodableActionIsANoteAndAnIssue() async throws {
    struct Meter: Reducer {
      struct State: Codable, Equatable, Sendable { var reading = 0.0 }
      enum Action: Codable, Equatable, Sendable { case read(Double) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        if case let .read(value) = action, value.isFinite { state.reading = value }
        return .none
      }
    }
    let directory = TemporaryDirectory()
    let url = directory.file()
    let issues = await recordedIssues {
      do {
        let recorder = try RecorderOf<Meter>(
          url: url, feature: "meter", initialState: Meter.State())
        let store = Store(initialState: Meter.State()) { Meter().recording(to: recorder) }
        store.send(.read(1))
        store.send(.read(.nan))
        store.send(.read(2))
        try recorder.close()
      } catch {
        Issue.record(error)
      }
    }
    #expect(issues.count == 1)
    // NB: It names the value, where it was and the true cause, and says it once for the kind.
    #expect(
      issues.first?.hasPrefix(
        "The recorder could not hold a value: action 2 could not be encoded: a Double of nan at value._0 cannot be written: JSON has no infinite or NaN numbers."
      ) == true, "\(issues)")
    #expect(
      issues.first?.hasSuffix(
        """
        A note stands in its place in test.actionlog, and the app runs as it did; this is said \
        once for each kind of value.
        """) == true, "\(issues)")
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 3)
    #expect(try recording.action(3, as: Meter.Action.self).action == .read(2))
    #expect(throws: ActionLogError.self) { try recording.action(2, as: Meter.Action.self) }
  }

  @Test func redactedValuesNeverReachTheFileAndTheRecordingStillReplays() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let secrets = ["My bank PIN is 4711", "Call Eve about the surprise", "My bank PIN is 4711"]
    let recorder = try RecorderOf<Journal>(
      url: url, feature: "journal", initialState: Journal.State(), checkpointInterval: 2,
      redacting: try Redactions(state: ["entries[*].text"], actions: ["write"])
    )
    let store = withDependencies {
      $0.context = .live
    } operation: {
      Store(initialState: Journal.State()) { Journal().recording(to: recorder) }
    }
    for secret in secrets { store.send(.write(secret)) }
    store.send(.clear)
    store.send(.write(""))
    try recorder.close()

    let bytes = try Data(contentsOf: url)
    // NB: Not short digit runs: live UUIDs, dates and random numbers may hold them by chance.
    for secret in secrets + ["bank PIN", "surprise"] {
      #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the file")
    }
    let recording = try Recording(contentsOf: url)
    #expect(recording.header.redactions.state.map(\.description) == ["entries[*].text"])
    #expect(try recording.action(3, as: Journal.Action.self).action == .write("‹redacted 1›"))
    #expect(
      try recording.checkpoint(after: 2, as: Journal.State.self).entries.map(\.text) == [
        "‹redacted 1›", "‹redacted 2›",
      ])
    let timeline = try Timeline(recording: recording, reducer: Journal(), feature: "journal")
    #expect(try timeline.verify() == nil)
    try timeline.goto(3)
    #expect(timeline.state.entries.map(\.text) == ["‹redacted 1›", "‹redacted 2›", "‹redacted 1›"])
  }

  @Test func valuesComputedAtRedactedPathsAreNotComparedOnReplay() throws {
    struct Greeter: Reducer {
      struct State: Codable, Equatable, Sendable {
        var name = ""
        var greeting = "Nobody to greet"
        var length = 0
      }
      enum Action: Codable, Equatable, Sendable { case named(String) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        guard case let .named(name) = action else { return .none }
        state.name = name
        state.greeting = "Hello, \(name)!"
        state.length = name.count
        return .none
      }
    }
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Greeter>(
      url: url, feature: "greeter", initialState: Greeter.State(), checkpointInterval: 1,
      redacting: try Redactions(state: ["name", "greeting"], actions: ["named"])
    )
    let store = Store(initialState: Greeter.State()) { Greeter().recording(to: recorder) }
    store.send(.named("Grace"))
    try recorder.close()
    #expect(try Data(contentsOf: url).range(of: Data("Grace".utf8)) == nil)

    // The greeting replays as "Hello, ‹redacted 2›!", recorded as its own placeholder: not
    // compared. The length, not redacted, is compared, and replays differently: the placeholder
    // is not as long as the name.
    let recording = try Recording(contentsOf: url)
    let timeline = try Timeline(recording: recording, reducer: Greeter(), feature: "greeter")
    let divergence = try #require(try timeline.verify())
    #expect(divergence.checkpoint == 1)
    #expect(divergence.diff?.contains("-   length: 5\n+   length: 12\n") == true)
    #expect(
      try timeline.verify(normalizing: { $0.length = 0 }) == nil,
      "with the length left out, the redacted name and greeting do not count as differences"
    )
  }

  @Test func aRedactionPathThatMatchesNothingIsReported() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let issues = await recordedIssues {
      do {
        let recorder = try RecorderOf<Journal>(
          url: url, feature: "journal", initialState: Journal.State(),
          redacting: try Redactions(state: ["entries[*].txt"], actions: ["write"])
        )
        let store = Store(initialState: Journal.State()) { Journal().recording(to: recorder) }
        store.send(.write("hello"))
        try recorder.close()
      } catch {
        Issue.record(error)
      }
    }
    #expect(
      issues == [
        """
        The state redaction path entries[*].txt matched no value in test.actionlog. Check its \
        spelling against the recording's JSON (cut -c10- FILE | jq): if it is wrong, what it meant \
        to hide is in the file.
        """
      ]
    )
    #expect(try Data(contentsOf: url).range(of: Data("hello".utf8)) != nil)
  }

  @Test func actionsAfterCloseAreNotRecorded() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<CounterFeature>(
      url: url, feature: "counter", initialState: CounterFeature.State())
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    store.send(.incrementButtonTapped)
    try recorder.close()
    store.send(.incrementButtonTapped)
    #expect(store.count == 2)
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 1)
    #expect(recording.ending == .clean)
  }
}

@Suite struct RecordingOutsideAStoreTests {
  @Test func dependencyReadsAreCapturedWithoutAStore() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Journal>(
      url: url, feature: "journal", initialState: Journal.State())
    let reducer = Journal().recording(to: recorder)
    var state = Journal.State()
    withDependencies {
      $0.uuid = .incrementing
      $0.date.now = Date(timeIntervalSince1970: 10)
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SplitMix64(seed: 1))
    } operation: {
      _ = reducer.reduce(into: &state, action: .write("direct"))
    }
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    let captured = try recording.action(1, as: Journal.Action.self).captured
    #expect(captured["uuid"] == ["00000000-0000-0000-0000-000000000000"])
    #expect(
      captured["date"] == [String(Date(timeIntervalSince1970: 10).timeIntervalSinceReferenceDate)])
    #expect(try Replayer(recording: recording, reducer: Journal()).state(after: 1) == state)
  }
}
