import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A budget whose limit is kept in a file and whose spending is shared in memory: a second
/// store raises the limit, another program lowers it, and the recorded store goes on spending.
@Reducer
struct Budget {
  static let limitURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("ComposableReplay-budget-\(UUID().uuidString)/limit.json")

  @ObservableState
  struct State: Codable, Equatable {
    @Shared(.fileStorage(Budget.limitURL)) var limit = 100
    @Shared(.inMemory("spent")) var spent = 0
    var refused: [Int] = []
  }

  enum Action: Codable, Equatable {
    case spend(Int)
    case raiseLimit(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .spend(amount):
        if state.spent + amount <= state.limit {
          state.$spent.withLock { $0 += amount }
        } else {
          state.refused.append(amount)
        }
      case let .raiseLimit(limit):
        state.$limit.withLock { $0 = limit }
      }
      return .none
    }
  }
}

/// The state a replay shows at a step is the one the recording holds there, whichever way the
/// replay reached it.
@MainActor
@Suite struct SharedTruthTests {
  /// Records the budget: 4 actions, a checkpoint after the last; between them a second store
  /// raises the limit to 200 and another program writes 150 to the file.
  func recordBudget(to url: URL, storage: FileStorage) async throws -> Recording {
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let initial = Budget.State()
      let recorder = try RecorderOf<Budget>(
        url: url, feature: "budget", initialState: initial, checkpointInterval: 4)
      let store = Store(initialState: initial) { Budget().recording(to: recorder) }
      let other = Store(initialState: Budget.State()) { Budget() }
      store.send(.spend(50))
      store.send(.spend(30))
      other.send(.raiseLimit(200))
      store.send(.spend(90))
      try storage.write(Data("150".utf8), to: Budget.limitURL)
      #expect(await eventually { store.state.limit == 150 })
      store.send(.spend(10))
      #expect(store.state.spent == 170)
      #expect(store.state.refused == [10])
      try recorder.close()
    }
    return try Recording(contentsOf: url)
  }

  @Test func theLastStepShowsTheRecordedSharedValues() async throws {
    let directory = TemporaryDirectory()
    let recording = try await self.recordBudget(
      to: directory.file(), storage: .inMemory())
    let timeline = try Timeline(recording: recording, reducer: Budget(), feature: "budget")
    try timeline.goto(4)
    #expect(timeline.state.spent == 170)
    #expect(timeline.state.limit == 150)
    // Step 4 changed the limit (from outside, before it) and refused 10; it spent nothing.
    let diff = try #require(try timeline.diff(from: 3, to: 4))
    let changed = diff.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
    #expect(!changed.contains { $0.contains("_spent") }, "\(diff)")
    // NB: `#1`: each step's state holds a shared value of its own, another object.
    #expect(changed.contains { $0.contains("_limit: #1 150") }, "\(diff)")
  }

  @Test func aFileOnTheMachineDoesNotChangeWhatAReplayShows() async throws {
    let directory = TemporaryDirectory()
    let recording = try await self.recordBudget(
      to: directory.file(), storage: .inMemory())
    try FileManager.default.createDirectory(
      at: Budget.limitURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("100".utf8).write(to: Budget.limitURL)
    defer { try? FileManager.default.removeItem(at: Budget.limitURL.deletingLastPathComponent()) }
    try withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      let timeline = try Timeline(recording: recording, reducer: Budget(), feature: "budget")
      try timeline.goto(3)
      #expect(timeline.state.limit == 200)
      try timeline.goto(4)
      #expect(timeline.state.limit == 150)
      #expect(timeline.state.spent == 170)
    }
    #expect(try Data(contentsOf: Budget.limitURL) == Data("100".utf8))
  }
}
