// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

/// A state with a member of every kind the generated code meets.
@ObservableState
struct ChangeSample: Codable, Equatable, Sendable {
  var count = 0
  var title = ""
  var note: String?
  var child: ChangeChild?
  var tags: [String] = []
  var items: IdentifiedArrayOf<ChangeItem> = []
  var scores: [String: Int] = [:]
  var mode: ChangeMode = .idle
  var flags: [Bool?] = []
  private var secret = 0
  let version = 1

  mutating func turnSecret() { self.secret += 1 }
}

@ObservableState
struct ChangeItem: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var name: String
  var done = false
  var extra: Int?
}

@ObservableState
struct ChangeChild: Codable, Equatable, Sendable {
  var value = 0
  var label: String?
}

enum ChangeMode: Codable, Equatable, Sendable {
  case idle
  case busy(Int)
}

/// The changes worked out from the values (the code `@ObservableState` generates) are those
/// worked out from the JSON, byte for byte in the file: on random edits of a state with every
/// kind of member, and on the states of every bundled recording.
@Suite struct StepChangesDifferentialTests {
  /// Writes `steps` (each action with the state after it) from `initial` twice, with updates
  /// worked out from the values and from the JSON, and returns both files' bytes.
  func writeBoth<State: Encodable & Sendable, Action: Encodable & Sendable>(
    initial: State, steps: [(Action, State)]
  ) throws -> (values: Data, json: Data) {
    let directory = TemporaryDirectory()
    func write(_ fromValues: Bool) throws -> Data {
      let url = directory.file(fromValues ? "values.actionlog" : "json.actionlog")
      var options = LogWriter.Options(syncPolicy: .never)
      options.changesFromValues = fromValues
      let writer = try LogWriter(
        url: url,
        header: LogHeader(
          feature: "sample", stateType: "State", actionType: "Action",
          startedAt: Date(timeIntervalSince1970: 0), checkpointInterval: 1_000,
          hasStepUpdates: true),
        initialState: initial, options: options)
      for (index, step) in steps.enumerated() {
        writer.append(
          .action(
            seq: index + 1, time: .nanoseconds(index), origin: .send, value: step.0,
            captured: CapturedValues(), state: step.1))
      }
      try writer.close(at: .seconds(1))
      return try Data(contentsOf: url)
    }
    return (try write(true), try write(false))
  }

  @Test func randomEditsGiveTheSameUpdates() throws {
    #expect(ChangeSample() is any _StepChanging)
    var generator = SplitMix64(seed: 0x5EED)
    var state = ChangeSample()
    var steps: [(Int, ChangeSample)] = []
    var nextID = 0
    for step in 0..<1_500 {
      for _ in 0...generator.next(below: 3) {
        state.edit(with: &generator, nextID: &nextID)
      }
      steps.append((step, state))
    }
    let (values, json) = try self.writeBoth(initial: ChangeSample(), steps: steps)
    #expect(values == json)
    let text = String(decoding: values, as: UTF8.self)
    for op in ["add", "remove", "replace", "move"] {
      #expect(text.contains(#""op":"\#(op)""#), "no \(op) in the random edits")
    }
  }

  @Test func aStringSpeltAnotherWayGivesTheSameUpdatesEitherWay() throws {
    // NB: Equal as Swift strings (canonically equivalent), not byte for byte: both ways
    // compare strings as Swift does.
    var composed = ChangeSample()
    composed.title = "caf\u{E9}"
    var decomposed = composed
    decomposed.title = "cafe\u{301}"
    #expect(composed.title == decomposed.title)
    let (values, json) = try self.writeBoth(
      initial: composed, steps: [(1, decomposed), (2, composed)])
    #expect(values == json)
  }

  #if !FEATURES_INLINE
    @Test func theTodosScriptGivesTheSameUpdates() throws {
      let recording = try Recording(contentsOf: bundledRecording("todos"))
      var state = try recording.initialState(as: Todos.State.self)
      var steps: [(Todos.Action, Todos.State)] = []
      try withDependencies {
        $0.uuid = .incrementing
        $0.continuousClock = ImmediateClock()
      } operation: {
        for seq in stride(from: 1, through: recording.count, by: 1) {
          let action = try recording.action(seq, as: Todos.Action.self).action
          _ = Todos().reduce(into: &state, action: action)
          steps.append((action, state))
        }
      }
      let (values, json) = try self.writeBoth(
        initial: try recording.initialState(as: Todos.State.self), steps: steps)
      #expect(values == json)
    }
  #endif

  @Test func everyBundledRecordingsStatesGiveTheSameUpdates() throws {
    #if !FEATURES_INLINE
      try self.compareStates("counter", CounterFeature.State.self, CounterFeature.Action.self)
      try self.compareStates("songs", SongsApp.State.self, SongsApp.Action.self)
    #endif
    try self.compareStates("inventory", Inventory.State.self, Inventory.Action.self)
    try self.compareStates("contacts", Contacts.State.self, Contacts.Action.self)
    try self.compareStates("search", CitySearch.State.self, CitySearch.Action.self)
    // Shared values: the changes come from the encoded states.
    try self.compareStates("preferences", Preferences.State.self, Preferences.Action.self)
  }

  /// The recording's own states, each decoded from the JSON of its step.
  func compareStates<State: Codable & Sendable, Action: Codable & Sendable>(
    _ name: String, _ state: State.Type, _ action: Action.Type
  ) throws {
    let recording = try Recording(contentsOf: bundledRecording(name))
    var steps: [(Action, State)] = []
    for seq in stride(from: 1, through: recording.count, by: 1) {
      let json = try recording.stateJSON(after: seq)
      steps.append(
        (
          try recording.action(seq, as: Action.self).action,
          try JSONDecoder().decode(State.self, from: Data(json.text.utf8))
        ))
    }
    let (values, json) = try self.writeBoth(
      initial: try recording.initialState(as: State.self), steps: steps)
    #expect(values == json, "\(name)")
  }
}

extension SplitMix64 {
  /// A number below `bound`, from the seeded generator, so a failure comes back on every run.
  fileprivate mutating func next(below bound: Int) -> Int { Int(self.next() % UInt64(bound)) }
}

extension ChangeSample {
  /// One random edit.
  mutating func edit(with generator: inout SplitMix64, nextID: inout Int) {
    switch generator.next(below: 18) {
    case 0: self.count += 1
    case 1: self.title = "title \(generator.next(below: 5))"
    case 2: self.note = generator.next(below: 2) == 0 ? nil : "note \(generator.next(below: 3))"
    case 3:
      self.child =
        generator.next(below: 3) == 0
        ? nil
        : ChangeChild(
          value: generator.next(below: 4), label: generator.next(below: 2) == 0 ? nil : "l")
    case 4: self.child?.value += 1
    case 5: self.tags.append("tag \(generator.next(below: 4))")
    case 6: if !self.tags.isEmpty { self.tags.remove(at: generator.next(below: self.tags.count)) }
    case 7:
      nextID += 1
      let item = ChangeItem(id: nextID, name: "item \(nextID)")
      self.items.insert(item, at: generator.next(below: self.items.count + 1))
    case 8:
      if !self.items.isEmpty { self.items.remove(at: generator.next(below: self.items.count)) }
    case 9:
      if !self.items.isEmpty {
        let index = generator.next(below: self.items.count)
        self.items[index].name += "!"
      }
    case 10:
      if !self.items.isEmpty {
        let index = generator.next(below: self.items.count)
        self.items[index].extra = self.items[index].extra == nil ? generator.next(below: 9) : nil
        self.items[index].done.toggle()
      }
    case 11:
      if self.items.count > 1 {
        self.items.swapAt(
          generator.next(below: self.items.count), generator.next(below: self.items.count))
      }
    case 12: self.items.sort { $0.name > $1.name }
    case 13: self.scores["k\(generator.next(below: 4))"] = generator.next(below: 10)
    case 14:
      self.mode = generator.next(below: 2) == 0 ? .idle : .busy(generator.next(below: 3))
    case 15: self.flags.append(generator.next(below: 3) == 0 ? nil : generator.next(below: 2) == 0)
    case 16:
      if !self.flags.isEmpty {
        let index = generator.next(below: self.flags.count)
        self.flags[index] = self.flags[index] == nil ? true : nil
      }
    default: self.turnSecret()
    }
  }
}
