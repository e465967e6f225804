import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

// An action that carries a shared value, as SyncUps' do: a screen pushed with a part of the
// list's shared value (`Shared($teams[id: id])`), and a delegate that hands it on. Replayed, the
// screen's value is the list's again, so what the screen writes reaches the list.

struct Team: Equatable, Identifiable, Codable {
  var id: Int
  var score = 0
}

@Reducer
struct TeamDetail {
  @ObservableState
  struct State: Equatable {
    @Shared var team: Team
  }
  enum Action {
    case scored
    case delegate(Delegate)
    enum Delegate { case handOff(Shared<Team>) }
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .scored:
        state.$team.withLock { $0.score += 1 }
        return .none
      case .delegate:
        return .none
      }
    }
  }
}

@Reducer
struct League {
  @Reducer
  enum Path {
    case detail(TeamDetail)
  }

  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("teams")) var teams: IdentifiedArrayOf<Team> = []
    var path = StackState<Path.State>()
  }

  enum Action {
    case added(Int)
    case openFirst
    case path(StackActionOf<Path>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .added(id):
        state.$teams.withLock { _ = $0.append(Team(id: id)) }
      case .openFirst:
        guard let first = state.teams.first, let team = Shared(state.$teams[id: first.id])
        else { return .none }
        state.path.append(.detail(TeamDetail.State(team: team)))
      case let .path(.element(_, .detail(.delegate(.handOff(team))))):
        state.path.append(.detail(TeamDetail.State(team: team)))
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: \.path)
  }
}

extension League.Path.State: Equatable {}

@MainActor
@Suite struct SharedInActionsTests {
  func record(to url: URL) throws -> Recording {
    let recorder = try RecorderOf<League>(
      url: url, feature: "league", initialState: League.State(), checkpointInterval: 3)
    let store = Store(initialState: League.State()) { League().recording(to: recorder) }
    store.send(.added(1))
    store.send(.added(2))
    // As a navigation link does: the screen is pushed with a part of the list's value.
    let second = try #require(Shared(store.state.$teams[id: 2]))
    store.send(.path(.push(id: 0, state: .detail(TeamDetail.State(team: second)))))
    store.send(.path(.element(id: 0, action: .detail(.scored))))
    // The screen appended after one pushed with its own identity gets another.
    store.send(.openFirst)
    store.send(.path(.element(id: 0, action: .detail(.delegate(.handOff(second))))))
    store.send(.path(.element(id: 2, action: .detail(.scored))))
    store.send(.path(.element(id: 1, action: .detail(.scored))))
    #expect(store.state.path.ids == [0, 1, 2])
    try recorder.close()
    return try Recording(contentsOf: url)
  }

  @Test func aPartOfASharedValueCarriedByActionsIsTheListsInReplay() throws {
    let directory = TemporaryDirectory()
    let recording = try self.record(to: directory.file())
    let timeline = try Timeline(recording: recording, reducer: League(), feature: "league")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try timeline.goto(recording.count)
    #expect(timeline.state.teams.map(\.score) == [1, 2])
    // From the start, without checkpoints between.
    try timeline.goto(4)
    #expect(timeline.state.teams.map(\.score) == [0, 1])
    guard case let .detail(detail)? = timeline.state.path[id: 0] else {
      Issue.record("no detail at #0")
      return
    }
    #expect(detail.team.score == 1)
  }

  @Test func theActionsPlacesAreRecordedAfterTheirAction() throws {
    let directory = TemporaryDirectory()
    let recording = try self.record(to: directory.file())
    let places = try recording.sharedRecords().compactMap { record -> (Int, [String: [String]])? in
      guard case let .actionPlaces(places) = record.change else { return nil }
      return (record.seq, places)
    }
    #expect(places.map(\.0) == [3, 6])
    #expect(places.first?.1.keys.sorted() == [".inMemory(\"teams\")#/1"])
  }

  @Test func anExportKeepsAnActionsPlacesWithTheActionRenumbered() throws {
    let directory = TemporaryDirectory()
    let recording = try self.record(to: directory.file())
    let cut = directory.file("cut.actionlog")
    _ = try recording.export(to: cut, options: ExportOptions(cut: ExportOptions.Cut(after: 3)))
    let exported = try Recording(contentsOf: cut)
    #expect(exported.count == recording.count - 3)
    let places = try exported.sharedRecords().compactMap { record -> Int? in
      guard case .actionPlaces = record.change else { return nil }
      return record.seq
    }
    // The push (3) was cut; the hand-off (6) is action 3 now.
    #expect(places == [3])
    let timeline = try Timeline(recording: exported, reducer: League(), feature: "league")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
  }
}
