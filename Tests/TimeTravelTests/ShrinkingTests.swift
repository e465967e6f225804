import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TestSupport
import Testing

@testable import TimeTravel

/// The parts of `replay shrink`: delta debugging, the first difference between two states,
/// conditions on a state, and a shrink stopped half way.
@Suite struct ShrinkingTests {
  /// A seeded generator, so that a failure names the inputs that made it.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      self.state = self.state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((self.state >> 33) % UInt64(bound))
    }
  }

  @Test(arguments: 0..<200)
  func deltaDebuggingFindsExactlyWhatIsNeeded(seed: Int) throws {
    var random = Generator(state: UInt64(seed))
    let count = 1 + random.next(400)
    let needed = Set((0..<random.next(6)).map { _ in random.next(count) })
    let input = Array(0..<count)
    var smaller: [Int] = [count]
    let result = DeltaDebugging<Int>.minimize(
      input,
      fails: { needed.isSubset(of: $0) },
      improved: { input, _ in smaller.append(input.count) })
    // For a failure that needs a set of elements, the one 1-minimal input is that set.
    #expect(result.input == needed.sorted(), "seed \(seed): \(count) elements, needs \(needed)")
    #expect(result.isComplete)
    // Each improvement is smaller than the last.
    #expect(zip(smaller, smaller.dropFirst()).allSatisfy { $0 > $1 }, "seed \(seed)")
  }

  @Test func deltaDebuggingFindsAnOrderedPair() {
    // Fails when some 7 comes after some 3: not monotone, and still 1-minimal.
    let input = [5, 7, 1, 3, 9, 3, 2, 7, 8, 1]
    let result = DeltaDebugging<Int>.minimize(
      input,
      fails: { input in
        guard let three = input.firstIndex(of: 3) else { return false }
        return input[three...].contains(7)
      })
    #expect(result.input == [3, 7])
  }

  @Test func deltaDebuggingStopsWithTheSmallestSoFar() {
    var asked = 0
    let result = DeltaDebugging<Int>.minimize(
      Array(0..<1_000),
      fails: { $0.contains(500) && $0.contains(501) },
      isCancelled: {
        asked += 1
        return asked > 5
      })
    #expect(!result.isComplete)
    #expect(result.input.contains(500) && result.input.contains(501))
    #expect(result.input.count < 1_000)
  }

  @Test func firstDifferenceWalksToTheFirstPropertyThatDiffers() throws {
    var todos = Todos.State()
    todos.todos.append(Todo.State(description: "milk", id: UUID(0)))
    todos.todos.append(Todo.State(description: "eggs", id: UUID(1)))
    var changed = todos
    changed.todos[1].isComplete = true
    changed.todos[0].priority = 2
    #expect(StatePath.firstDifference(todos, todos) == nil)
    #expect(StatePath.firstDifference(todos, changed)?.description == "todos[0].priority")
    // Another length: the collection itself.
    var shorter = todos
    shorter.todos.removeLast()
    #expect(StatePath.firstDifference(todos, shorter)?.description == "todos")
    // Dictionaries by key, optionals through.
    let left: [String: Int?] = ["a": 1, "b": 2]
    let right: [String: Int?] = ["a": 1, "b": nil]
    #expect(StatePath.firstDifference(left, right)?.description == "b")
    #expect(
      try StatePath("todos[3].title").isSameProperty(as: StatePath("todos[0].title"))
        && !StatePath("todos[3].title").isSameProperty(as: StatePath("todos[3].id")))
  }

  @Test func conditionsReadAsPrintShowsValues() throws {
    var todos = Todos.State()
    todos.todos.append(Todo.State(description: "buy milk", id: UUID(0)))
    #expect(try StateCondition("todos.count == 1").holds(in: todos))
    #expect(try !StateCondition("todos.count != 1").holds(in: todos))
    #expect(try StateCondition("todos[0].description == \"buy milk\"").holds(in: todos))
    #expect(try StateCondition("todos[0].description==buy milk").holds(in: todos))
    #expect(try StateCondition("todos[0].isComplete == false").holds(in: todos))
    #expect(try StateCondition("filter == .all").holds(in: todos))
    // A path that leads nowhere holds neither way.
    #expect(try !StateCondition("todos[4].isComplete != true").holds(in: todos))
    #expect(throws: StateConditionError.self) { try StateCondition("count 3") }
    #expect(throws: StateConditionError.self) { try StateCondition("== 3") }
    #expect(throws: StatePathError.self) { try StateCondition("todos[x] == 3") }
  }

  @Test func unitsKeepAnActionWithEverythingItsEffectsFedBack() throws {
    let recording = try Recording(contentsOf: bundledRecording("counter"))
    let units = recording.units(through: 10)
    #expect(units.prefix(4) == [[1], [2], [3, 4], [5]])
    #expect(units.last == [10])
  }

  @Test func aShrinkStoppedHalfWayWritesTheSmallestSoFar() throws {
    let directory = TemporaryDirectory()
    let recording = try Recording(contentsOf: bundledRecording("todos"))
    let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    var rounds: [ShrinkProgress] = []
    let outcome = try timeline.shrink(
      to: directory.file("half.actionlog"),
      keeping: .watch(try StateCondition("todos.count == 3")),
      progress: { rounds.append($0) },
      isCancelled: { rounds.count >= 3 })
    #expect(!outcome.isComplete)
    #expect(outcome.kept.count == rounds.last?.actions)
    let written = try Recording(contentsOf: directory.file("half.actionlog"))
    #expect(written.count == outcome.kept.count)
    #expect(
      written.header.metadata["shrunkFrom"]?.hasSuffix("; interrupted, it may shrink further")
        == true)
    // What it wrote still fails the same way.
    let again = try Timeline(recording: written, reducer: Todos(), feature: "todos")
    try again.goto(written.count)
    #expect(again.state.todos.count == 3)
  }

  @Test func aDivergenceNeedsTheBehaviourTheRecordingWasMadeWith() throws {
    let directory = TemporaryDirectory()
    let recording = try Recording(contentsOf: bundledRecording("songs"))
    let timeline = try Timeline(recording: recording, reducer: SongsApp(), feature: "songs")
    #expect(throws: ShrinkError.needsRecordedBehaviour) {
      try timeline.shrink(to: directory.file("a.actionlog"), keeping: .diverges)
    }
    // Today's reducer is the behaviour songs.actionlog was made with: nothing diverges.
    #expect(throws: ShrinkError.doesNotFail(.diverges)) {
      try timeline.shrink(
        to: directory.file("b.actionlog"), keeping: .diverges, recordedBy: SongsApp())
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("b.actionlog").path))
  }

  @Test func severalUnitsAtOnceWhereNoOneCanGo() throws {
    // Fails with all of 0…7, or with 1 and 6 alone, and with nothing in between: ddmin's answer
    // is the eight, from which no one element can go.
    func fails(_ input: [Int]) -> Bool { input == Array(0..<8) || input == [1, 6] }
    let ddmin = DeltaDebugging<Int>.minimize(Array(0..<8), fails: fails)
    #expect(ddmin.input == Array(0..<8))
    let smallest = try #require(
      DeltaDebugging<Int>.smallest(ddmin.input, fails: fails, budget: 100))
    #expect(smallest.input == [1, 6])
    #expect(smallest.tests == 8 + 7 + 5)
    #expect(DeltaDebugging<Int>.smallest(ddmin.input, fails: fails, budget: 10) == nil)
  }

  @MainActor
  @Test func aShrinkKeepsWhatAnEffectNeedsToHaveStarted() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("transfer.actionlog")
    let recorder = try RecorderOf<Transfer>(
      url: url, feature: "transfer", initialState: Transfer.State())
    let store = Store(initialState: Transfer.State()) { Transfer().recording(to: recorder) }
    store.send(.deposit(100))
    store.send(.deposit(7))
    store.send(.startTransferTapped)
    await store.send(.confirm).finish()
    store.send(.deposit(5))
    try recorder.close()

    let timeline = try Timeline(
      recording: try Recording(contentsOf: url), reducer: Transfer(), feature: "transfer")
    let outcome = try timeline.shrink(
      to: directory.file("shrunk.actionlog"),
      keeping: .watch(try StateCondition("balance == 95")))
    // Without the start, confirm starts nothing: the spend it fed back could not happen there.
    #expect(outcome.kept == [1, 2, 3, 4, 5])
    let written = try Recording(contentsOf: directory.file("shrunk.actionlog"))
    #expect(written.origin(ofAction: 5) == .effect(parent: 4))
  }
}

extension ShrinkingTests {
  @MainActor
  @Test func everyShrunkRecordingCouldHappen() async throws {
    let directory = TemporaryDirectory()
    // A wallet session: the 102 it reaches is 100 + 7 - 5, three actions of eight.
    let url = directory.file("wallet.actionlog")
    let recorder = try RecorderOf<Transfer>(
      url: url, feature: "transfer", initialState: Transfer.State())
    let store = Store(initialState: Transfer.State()) { Transfer().recording(to: recorder) }
    store.send(.deposit(100))
    store.send(.startTransferTapped)
    await store.send(.confirm).finish()
    store.send(.deposit(7))
    store.send(.deposit(12))
    store.send(.spend(5))
    store.send(.startTransferTapped)
    try recorder.close()
    let wallet = try Timeline(
      recording: try Recording(contentsOf: url), reducer: Transfer(), feature: "transfer")
    let outcome = try wallet.shrink(
      to: directory.file("wallet.shrunk.actionlog"),
      keeping: .watch(try StateCondition("balance == 102")))
    #expect(outcome.kept == [1, 5, 7], "kept \(outcome.kept)")

    // And shrinks of the bundled recordings, each scanned.
    var shrunk = [directory.file("wallet.shrunk.actionlog")]
    for (name, condition) in [
      ("counter", "count == 10"), ("counter", "isLoading == true"), ("todos", "todos.count == 3"),
    ] {
      let recording = try Recording(contentsOf: bundledRecording(name))
      let output = directory.file("\(name)-\(shrunk.count).actionlog")
      if name == "counter" {
        _ = try Timeline(recording: recording, reducer: CounterFeature(), feature: name)
          .shrink(to: output, keeping: .watch(try StateCondition(condition)))
      } else {
        _ = try Timeline(recording: recording, reducer: Todos(), feature: name)
          .shrink(to: output, keeping: .watch(try StateCondition(condition)))
      }
      shrunk.append(output)
    }
    for file in shrunk {
      let recording = try Recording(contentsOf: file)
      #expect(try actionsNoEffectCouldHaveFedBack(in: recording) == [], "\(file.lastPathComponent)")
    }
  }
}

/// A transfer that must be started before it is confirmed, and whose confirmation spends through
/// an effect.
private struct Transfer: Reducer {
  struct State: Codable, Equatable {
    var balance = 0
    var isTransferring = false
  }
  enum Action: Codable, Equatable {
    case confirm
    case deposit(Int)
    case spend(Int)
    case startTransferTapped
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .confirm:
      guard state.isTransferring else { return .none }
      state.isTransferring = false
      return .run { send in await send(.spend(12)) }
    case let .deposit(amount):
      state.balance += amount
      return .none
    case let .spend(amount):
      state.balance -= amount
      return .none
    case .startTransferTapped:
      state.isTransferring = true
      return .none
    }
  }
}
