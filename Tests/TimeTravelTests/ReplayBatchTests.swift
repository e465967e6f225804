import ActionLog
@_spi(Internals) import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// Steps replayed in a batch (the dependencies installed once) are the steps replayed one by
/// one: the same states, the same recorded values read, the same reads beyond them.
@Suite struct ReplayBatchTests {
  @Test func aBatchReplaysAsSingleStepsDo() throws {
    let recording = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("todos.actionlog"))
    let replayer = Replayer(recording: recording, reducer: Todos())
    var single = try replayer.initialState()
    var batched = try replayer.initialState()
    var singleSteps: [ReplayedStep] = []
    var batchedSteps: [ReplayedStep] = []
    for seq in 1...recording.count { singleSteps.append(try replayer.apply(seq, to: &single)) }
    try replayer.batch {
      for seq in 1...recording.count { batchedSteps.append(try replayer.apply(seq, to: &batched)) }
    }
    #expect(single == batched)
    #expect(singleSteps.map(\.overruns) == batchedSteps.map(\.overruns))
    #expect(singleSteps.map(\.unread) == batchedSteps.map(\.unread))
    #expect(batchedSteps.allSatisfy { $0.isFaithful })

    // A step that reads more than was recorded says so in a batch too: an action that is
    // not in the recording reads a UUID that nothing recorded.
    var diverted = single
    let step = replayer.batch {
      replayer.apply(unrecorded: .addTodoButtonTapped, to: &diverted)
    }
    #expect(step.overruns == ["uuid": 1])
  }
}

/// A counter that adds what each action says, and reports an issue for a negative amount: for
/// replaying many small actions, and one that fails to decode as a narrower type.
@Reducer struct Adder {
  struct State: Equatable, Codable { var total = 0 }
  enum Action: Equatable, Codable { case add(Int) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(amount):
        if amount < 0 { reportIssue("a negative amount") }
        state.total += amount
        return .none
      }
    }
  }
}

/// ``Adder`` as a later version reads its recordings: amounts are bytes now, so an action
/// adding more than 255 no longer decodes.
@Reducer struct ByteAdder {
  struct State: Equatable, Codable { var total = 0 }
  enum Action: Equatable, Codable { case add(UInt8) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(amount):
        state.total += Int(amount)
        return .none
      }
    }
  }
}

/// A long run replayed with its actions decoded ahead on another thread is the run replayed
/// one step at a time: the same states, the same steps, a failure at the same step.
@Suite struct DecodingAheadTests {
  @MainActor private func adderRecording(_ amounts: [Int]) throws -> (Recording, TemporaryDirectory)
  {
    let folder = TemporaryDirectory()
    let url = folder.url.appendingPathComponent("adder.actionlog")
    let recorder = try RecorderOf<Adder>(
      url: url, feature: "adder", initialState: Adder.State(),
      options: LogWriter.Options(syncPolicy: .never))
    let store = Store(initialState: Adder.State()) { Adder().recording(to: recorder) }
    withKnownIssue(isIntermittent: true) {
      for amount in amounts { store.send(.add(amount)) }
    } matching: { _ in
      true
    }
    try recorder.close()
    return (try Recording(contentsOf: url), folder)
  }

  @Test @MainActor func aLongRunReplaysAsSingleStepsDo() throws {
    let amounts = (1...1_000).map { $0 % 97 == 0 ? -$0 : $0 }
    let (recording, folder) = try self.adderRecording(amounts)
    defer { withExtendedLifetime(folder) {} }
    let replayer = Replayer(recording: recording, reducer: Adder())
    var single = try replayer.initialState()
    var singleSteps: [ReplayedStep] = []
    for seq in 1...recording.count { singleSteps.append(try replayer.apply(seq, to: &single)) }
    var run = try replayer.initialState()
    var runSteps: [ReplayedStep] = []
    try replayer.replay(from: 1, through: recording.count, on: &run) { runSteps.append($0) }
    #expect(run == single)
    #expect(run.total == amounts.reduce(0, +))
    #expect(runSteps == singleSteps)
    // NB: The issue each negative amount reported is named at its step, and at no other.
    #expect(
      runSteps.filter { !$0.issues.isEmpty }.map(\.seq)
        == amounts.indices.filter { amounts[$0] < 0 }.map { $0 + 1 })

    // A run from the middle, and one too short to decode ahead, agree as well.
    var middle = try replayer.state(after: 400)
    try replayer.replay(from: 401, through: recording.count, on: &middle)
    #expect(middle == single)
    var short = try replayer.state(after: 980)
    try replayer.replay(from: 981, through: recording.count, on: &short)
    #expect(short == single)
  }

  @Test @MainActor func anActionThatNoLongerDecodesFailsAtItsStep() throws {
    let (recording, folder) = try self.adderRecording(Array(repeating: 1, count: 600) + [300, 1])
    defer { withExtendedLifetime(folder) {} }
    let replayer = Replayer(recording: recording, reducer: ByteAdder())
    var state = try replayer.initialState()
    var replayed: [Int] = []
    #expect {
      try replayer.replay(from: 1, through: recording.count, on: &state) {
        replayed.append($0.seq)
      }
    } throws: { error in
      guard case let ActionLogError.undecodable(_, _, codingPath, reason) = error else {
        return false
      }
      return codingPath == "value.add._0" && reason.contains("300")
    }
    #expect(replayed == Array(1...600))
    #expect(state.total == 600)
  }

  @Test @MainActor func aReaderOfOneTypeDecodesAsActionDoes() throws {
    let todos = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("todos.actionlog"))
    let read = todos.actionReader(as: Todos.Action.self)
    let run = todos.actions(1...todos.count, as: Todos.Action.self)
    for seq in 1...todos.count {
      let alone = try todos.action(seq, as: Todos.Action.self)
      #expect(try read(seq) == alone, "action \(seq)")
      #expect(try run[seq - 1].get() == alone, "action \(seq) in a run")
    }
    // NB: What generated code does not read fails as decoding the action alone fails.
    let (adder, folder) = try self.adderRecording([1, 300])
    defer { withExtendedLifetime(folder) {} }
    let readBytes = adder.actionReader(as: ByteAdder.Action.self)
    #expect(try readBytes(1) == adder.action(1, as: ByteAdder.Action.self))
    let viaReader = #expect(throws: ActionLogError.self) { try readBytes(2) }
    let alone = #expect(throws: ActionLogError.self) {
      try adder.action(2, as: ByteAdder.Action.self)
    }
    #expect(viaReader == alone)
    let adderRun = adder.actions(1...2, as: ByteAdder.Action.self)
    #expect(try adderRun[0].get() == adder.action(1, as: ByteAdder.Action.self))
    let inRun = #expect(throws: ActionLogError.self) { try adderRun[1].get() }
    #expect(inRun == alone)
    #expect(throws: ActionLogError.noSuchAction(seq: 3, count: 2)) { try readBytes(3) }
  }

  @Test @MainActor func aSearchThatStopsEarlyLetsTheDecodingGo() throws {
    let (recording, folder) = try self.adderRecording(Array(repeating: 0, count: 3_000) + [5])
    defer { withExtendedLifetime(folder) {} }
    let timeline = try Timeline(recording: recording, reducer: Adder(), feature: "adder")
    // NB: Many searches that each stop soon after they start, leaving most of the run undecoded.
    for start in stride(from: 0, to: 2_900, by: 100) {
      try timeline.goto(start)
      let found = try timeline.continueForward(
        watching: [StatePath("total")], breakpoints: [], isCancelled: { true })
      #expect(found == nil)
    }
    try timeline.goto(0)
    let found = try timeline.continueForward(watching: [StatePath("total")], breakpoints: [])
    #expect(found?.step == 3_001)
  }

  @Test @MainActor func anIssueBetweenStepsOfABatchIsReportedAsUsual() throws {
    let (recording, folder) = try self.adderRecording([1, -2, 3])
    defer { withExtendedLifetime(folder) {} }
    let replayer = Replayer(recording: recording, reducer: Adder())
    var state = try replayer.initialState()
    let outside = IssueCollector()
    let steps = try withIssueReporters([outside]) {
      try replayer.batch {
        let first = try replayer.apply(1, to: &state)
        reportIssue("between the steps")
        return [first, try replayer.apply(2, to: &state), try replayer.apply(3, to: &state)]
      }
    }
    #expect(outside.issues.map(\.message) == ["between the steps"])
    #expect(steps.map(\.issues.count) == [0, 1, 0])
    #expect(steps[1].issues.first?.hasPrefix("a negative amount") == true)
  }
}
