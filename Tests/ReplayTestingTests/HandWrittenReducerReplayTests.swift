import ActionLog
import ComposableArchitecture
import Foundation
import ReplayTesting
import TestSupport
import Testing
import TimeTravel

// A reducer written without the macros, as TCA's older features are: its state says nothing
// of `Codable`. `assertReplay` and `ReplayFeature` take it, reading its values by reflection.

struct Tally: Reducer {
  struct Entry: Equatable {
    var note: String
    var amount: Int
  }
  struct State: Equatable {
    var entries: [Entry] = []
    var total = 0
  }
  enum Action: Codable {
    case add(note: String, amount: Int)
    case clear
  }

  var doublesAmounts = false

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(note, amount):
      let amount = self.doublesAmounts ? amount * 2 : amount
      state.entries.append(Entry(note: note, amount: amount))
      state.total += amount
    case .clear:
      state = State()
    }
    return .none
  }
}

/// The same, its actions an `indirect` enum, which the compiler boxes and reflection cannot
/// build (a plain enum it builds): replay stops at the first, naming it.
struct PlainLedger: Reducer {
  typealias State = Tally.State
  indirect enum Action { case add(note: String, amount: Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case let .add(note, amount) = action else { return .none }
    state.entries.append(Tally.Entry(note: note, amount: amount))
    return .none
  }
}

@MainActor
@Suite struct HandWrittenReducerReplayTests {
  func record<R: Reducer>(_ reducer: R, _ actions: [R.Action], to url: URL) throws
  where R.State == Tally.State {
    let recorder = try RecorderOf<R>(url: url, feature: "tally", initialState: Tally.State())
    let store = Store(initialState: Tally.State()) { reducer.recording(to: recorder) }
    for action in actions { store.send(action) }
    try recorder.close()
  }

  @Test func aStateWithoutCodableReplaysAndAChangeFailsAtItsStep() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.record(
      Tally(), [.add(note: "rent", amount: 900), .add(note: "tea", amount: 4), .clear], to: url)
    try assertReplay(url, feature: "tally") { Tally() }
    try withKnownIssue {
      try assertReplay(url, feature: "tally") { Tally(doublesAmounts: true) }
    } matching: { issue in
      issue.description.contains("differs from the recording at step 1")
    }
  }

  @Test func aFeatureRegisteredWithoutCodableOpensAndSteps() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.record(Tally(), [.add(note: "rent", amount: 900), .clear], to: url)
    let feature = ReplayFeature("tally") { Tally() }
    let session = try feature.open(Recording(contentsOf: url))
    #expect(session.isReplayable)
    #expect(
      try session.verifyRecording(everyStep: true, willReplay: { _ in }, isCancelled: { false })
        == nil)
    try session.goto(1)
    #expect(
      try session.encodedState(at: 1).map { String(decoding: $0, as: UTF8.self) }
        == #"{"entries":[{"amount":900,"note":"rent"}],"total":900}"#)
  }

  @Test func anActionReflectionCannotBuildStopsTheReplayNamingIt() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.record(PlainLedger(), [.add(note: "rent", amount: 900)], to: url)
    #expect {
      try assertReplay(url, feature: "tally") { PlainLedger() }
    } throws: { error in
      "\(error)".contains("A recorded PlainLedger.Action at value.add cannot be rebuilt")
        && "\(error)".contains("extension PlainLedger.Action: Codable {}")
    }
  }
}
