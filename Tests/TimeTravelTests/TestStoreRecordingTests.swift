import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

@testable import ReplayViewer

/// A tally whose effect feeds back a doubling, to test what a test store records.
@Reducer
struct Doubler {
  @ObservableState
  struct State: Equatable {
    var value = 1
    var id: UUID?
  }
  enum Action { case tapped, doubled }
  @Dependency(\.uuid) var uuid
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tapped:
        state.id = self.uuid()
        return .send(.doubled)
      case .doubled:
        state.value *= 2
        return .none
      }
    }
  }
}

/// The same, with a step a replay cannot reproduce: it reads the system's random numbers, not
/// the dependency.
@Reducer
struct UnrecordedDoubler {
  typealias State = Doubler.State
  typealias Action = Doubler.Action
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .doubled = action { state.value *= Int.random(in: 2...1_000_000) }
      return action == .tapped ? .send(.doubled) : .none
    }
  }
}

/// A reading that can be infinite.
@Reducer
struct Gauge {
  @ObservableState
  struct State: Equatable {
    var reading = 0.0
  }
  enum Action: Equatable { case read(Double) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case let .read(value) = action { state.reading = value }
      return .none
    }
  }
}

@MainActor
@Suite struct TestStoreRecordingTests {
  func files(in directory: TemporaryDirectory) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).sorted()
  }

  @Test func aFailingTestKeepsItsRunWithTheFailureNotedAtItsStep() async throws {
    let directory = TemporaryDirectory()
    let messages = await recordedIssues(keepingWhereTheRunIs: true) {
      let store = TestStore(initialState: Doubler.State(), recording: .onFailure(in: directory.url))
      {
        Doubler()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.tapped) { $0.id = UUID(0) }
      await store.receive(\.doubled) { $0.value = 3 }
    }
    let name =
      "TimeTravelTests.TestStoreRecordingTests.aFailingTestKeepsItsRunWithTheFailureNotedAtItsStep()"
    #expect(self.files(in: directory) == ["\(name).actionlog"])
    let message = try #require(messages.first)
    // NB: The assertion's message is TCA's, whole: tests compare failure messages. Where the
    // run is recorded is said on standard error, beside it.
    #expect(message.hasPrefix("A state change does not match expectation"))
    #expect(message.hasSuffix("(Expected: −, Actual: +)"))
    #expect(!message.contains("recorded in"))
    let url = directory.url.appendingPathComponent("\(name).actionlog")
    let said = _TestStoreRecorderNotes.whereTheRunIs(url)
    #expect(said.contains("The run so far is recorded in \(url.path): step through it"))
    #expect(said.contains("\n  replay \(url.path)\n"))
    #expect(said.hasSuffix("\n  replay html \(url.path)"))
    let recording = try Recording(
      contentsOf: directory.url.appendingPathComponent("\(name).actionlog"))
    #expect(recording.count == 2)
    #expect(try recording.action(2, as: Doubler.Action.self).origin == .effect(parent: 1))
    #expect(try recording.stateJSON(after: 2)["value"] == .integer(2))
    let notes = recording.warnings.compactMap { warning -> (Int, String)? in
      guard case let .note(seq, text) = warning else { return nil }
      return (seq, text)
    }
    #expect(notes.map(\.0) == [2])
    #expect(notes.first?.1.hasPrefix("✘ A state change does not match expectation") == true)
    #expect(notes.first?.1.contains("value: 3") == true)
  }

  @Test func aPassingTestLeavesNone() async {
    let directory = TemporaryDirectory()
    do {
      let store = TestStore(initialState: Doubler.State(), recording: .onFailure(in: directory.url))
      {
        Doubler()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.tapped) { $0.id = UUID(0) }
      await store.receive(\.doubled) { $0.value = 2 }
    }
    #expect(self.files(in: directory) == [])
  }

  @Test func everyRunKeepsEachStoresRunAndChecksItReplays() async throws {
    let directory = TemporaryDirectory()
    for _ in 0..<2 {
      let store = TestStore(initialState: Doubler.State(), recording: .everyRun(in: directory.url))
      {
        Doubler()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.tapped) { $0.id = UUID(0) }
      await store.receive(\.doubled) { $0.value = 2 }
    }
    let name =
      "TimeTravelTests.TestStoreRecordingTests.everyRunKeepsEachStoresRunAndChecksItReplays()"
    #expect(self.files(in: directory) == ["\(name)-2.actionlog", "\(name).actionlog"])
  }

  @Test func aRunThatDoesNotReplayFailsAtItsStep() async throws {
    let directory = TemporaryDirectory()
    let messages = await recordedIssues(keepingWhereTheRunIs: true) {
      let store = TestStore(initialState: Doubler.State(), recording: .everyRun(in: directory.url))
      {
        UnrecordedDoubler()
      }
      store.exhaustivity = .off
      await store.send(.tapped)
      await store.receive(\.doubled)
    }
    #expect(messages.count == 1)
    #expect(
      messages.first?.hasPrefix("The test store's run does not replay from its recording") == true)
    #expect(messages.first?.contains("differs from the recording at step 2") == true)
  }

  /// A value the recorder cannot hold (a number JSON has no way to write) is a note in the
  /// recording, never an issue in the test: the test passes as it does without a recorder.
  @Test func aValueTheRecorderCannotHoldLeavesTheTestsVerdictAlone() async throws {
    let directory = TemporaryDirectory()
    do {
      let store = TestStore(initialState: Gauge.State(), recording: .everyRun(in: directory.url)) {
        Gauge()
      }
      await store.send(.read(1.5)) { $0.reading = 1.5 }
      await store.send(.read(.infinity)) { $0.reading = .infinity }
    }
    let file = try #require(self.files(in: directory).first)
    let text = try String(
      contentsOf: directory.url.appendingPathComponent(file), encoding: .utf8)
    #expect(text.contains(#""kind":"note""#))
    #expect(text.contains("cannot be written: JSON has no infinite or NaN numbers"))
  }

  @Test func offRecordsNothing() async {
    let directory = TemporaryDirectory()
    _ = await recordedIssues(keepingWhereTheRunIs: true) {
      let store = TestStore(initialState: Doubler.State(), recording: .off) {
        Doubler()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.tapped) { $0.value = 5 }
      await store.skipReceivedActions()
    }
    #expect(self.files(in: directory) == [])
  }
}

/// A failing test's run, opened as a person would: `replay` without the feature's code.
@MainActor
@Suite struct FailingTestRecordingInTheREPLTests {
  @Test func replayStepsToTheFailureShowsItsNoteAndStepsBack() async throws {
    let directory = TemporaryDirectory()
    _ = await recordedIssues(keepingWhereTheRunIs: true) {
      let store = TestStore(initialState: Doubler.State(), recording: .onFailure(in: directory.url))
      {
        Doubler()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.tapped) { $0.id = UUID(0) }
      await store.receive(\.doubled) { $0.value = 3 }
    }
    let file = try #require(
      FileManager.default.contentsOfDirectory(atPath: directory.url.path).first)
    let result = try await run(
      "replay", [file], input: "info\ngoto 2\nprint value\nback\nquit\n", in: directory.url)
    let output = result.output
    #expect(output.contains("A test's run: 1 failed assertion, at step 2."), "\(output)")
    #expect(output.contains("2/2"), "\(output)")
    #expect(output.contains("  ✘ A state change does not match expectation"), "\(output)")
    #expect(output.contains("−     value: 3") || output.contains("value: 3"), "\(output)")
    #expect(output.contains("\n2\n"), "print value at step 2 is the recorded 2: \(output)")
    #expect(output.contains("1/2"), "back goes to step 1: \(output)")
    // The page `replay html` makes shows the note at its step too.
    let recording = try Recording(contentsOf: directory.url.appendingPathComponent(file))
    let page = try HTMLReport.records(of: recording, options: HTMLReport.Options())
    let data = String(decoding: page.json, as: UTF8.self)
    #expect(data.contains(#""notes":[[2,"✘ A state change does not match expectation"#), "\(data)")
  }
}
