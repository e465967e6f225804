import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A dependency client a reducer calls where it runs, as SyncUps' reads its speech
/// authorization: its answers are inputs a recording must hold.
struct Permissions: Sendable {
  var status: @Sendable () -> PlainStatus = { .denied }
  var level: @Sendable () -> Int = { 0 }
}

extension Permissions: DependencyKey {
  static let liveValue = Permissions()
  static let testValue = Permissions()
}

extension DependencyValues {
  var permissions: Permissions {
    get { self[Permissions.self] }
    set { self[Permissions.self] = newValue }
  }
}

@Reducer
struct Gate {
  @ObservableState
  struct State: Equatable {
    var opened: [Int] = []
    var refused = 0
  }
  enum Action { case knock }
  @Dependency(\.permissions) var permissions
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      if self.permissions.status() == .authorized {
        state.opened.append(self.permissions.level())
      } else {
        state.refused += 1
      }
      return .none
    }
  }
}

@MainActor
@Suite struct RecordedReadsTests {
  let reads: [RecordableDependency] =
    RecordableDependency.standard + [
      .reads(\.permissions.status, as: "permissions.status"),
      .reads(\.permissions.level, as: "permissions.level"),
    ]

  func record(to url: URL) throws -> Recording {
    let recorder = try RecorderOf<Gate>(
      url: url, feature: "gate", initialState: Gate.State(), dependencies: self.reads)
    let level = LockIsolated(0)
    let store = Store(initialState: Gate.State()) {
      Gate().recording(to: recorder)
    } withDependencies: {
      $0.permissions.status = { .authorized }
      $0.permissions.level = {
        level.withValue {
          $0 += 1; return $0
        }
      }
    }
    store.send(.knock)
    store.send(.knock)
    try recorder.close()
    return try Recording(contentsOf: url)
  }

  @Test func anEndpointReadWhereTheReducerRunsIsRecordedAndAnswersTheReplay() throws {
    let directory = TemporaryDirectory()
    let recording = try self.record(to: directory.file())
    #expect(recording.count == 2)
    #expect(
      try recording.action(1, as: Gate.Action.self).captured.values["permissions.status"] == ["1"])
    let timeline = try Timeline(
      recording: recording, reducer: Gate(), feature: "gate", dependencies: self.reads)
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try timeline.goto(2)
    #expect(timeline.state.opened == [1, 2])
  }

  @Test func withoutItTheReplayDivergesAtTheFirstRead() throws {
    let directory = TemporaryDirectory()
    let recording = try self.record(to: directory.file())
    let timeline = try Timeline(recording: recording, reducer: Gate(), feature: "gate")
    let divergence = try #require(try timeline.verify())
    #expect(divergence.step == 1)
  }
}
