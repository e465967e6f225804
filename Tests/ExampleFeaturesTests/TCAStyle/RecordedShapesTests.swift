// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

// The shapes TCA's apps and case studies hold, none of them declared `Codable` by the feature
// (or declared only half of it): each is recorded and replayed as it is.

/// A model read from a server: `Decodable` only, its keys the server's.
struct ServerForecast: Decodable, Equatable, Sendable {
  var temperatureMax: [Double]
  var time: [Date]
  var units: Units

  struct Units: Decodable, Equatable, Sendable {
    var temperatureMax: String
    private enum CodingKeys: String, CodingKey { case temperatureMax = "temperature_2m_max" }
  }

  private enum CodingKeys: String, CodingKey {
    case temperatureMax = "temperature_2m_max"
    case time
    case units = "daily_units"
  }
}

/// A filter whose raw value is not `Codable` in itself: a `LocalizedStringKey`.
enum ShapeFilter: LocalizedStringKey, CaseIterable, Hashable, Sendable {
  case all = "All"
  case completed = "Completed"
}

/// An enum with values, declared outside any macro's reach.
enum ShapeFavoriting: Equatable, Sendable {
  case buttonTapped
  case response(Result<Bool, ShapeError>)
  case moved(row: Int, column: Int)
}

struct ShapeError: Error, Equatable, Sendable {
  var reason: String
}

/// An enum without values or a raw value.
enum ShapePlayer: Equatable, Sendable {
  case o, x
}

/// A generic model.
struct ShapeThree<Element: Equatable & Sendable>: Equatable, Sendable {
  var first: Element
  var second: Element
  var third: Element
}

/// A class, compared by its contents.
final class ShapeSession: Equatable, @unchecked Sendable {
  let name: String
  var visits: Int
  init(name: String, visits: Int) {
    self.name = name
    self.visits = visits
  }
  static func == (lhs: ShapeSession, rhs: ShapeSession) -> Bool {
    lhs.name == rhs.name && lhs.visits == rhs.visits
  }
}

/// Foundation's values, in a struct without `Codable`.
struct ShapeStamp: Equatable, Sendable {
  var date: Date
  var data: Data
  var url: URL
  var uuid: UUID
  var decimal: Decimal
  var duration: Duration
}

@Reducer
struct Shapes {
  @ObservableState
  struct State: Equatable {
    var filter = ShapeFilter.all
    var forecast: Result<ServerForecast, any Error>?
    var board = ShapeThree<ShapePlayer?>(first: nil, second: nil, third: nil)
    var favorite: ShapeFavoriting?
    var session = ShapeSession(name: "Blob", visits: 0)
    var lastMove: (row: Int, column: Int)?
    var id = AnyHashableSendable(1)
    var nested: Int?? = .some(nil)
    var stamps: [String: ShapeStamp] = [:]
    var tags: Set<ShapePlayer> = []

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.filter == rhs.filter && lhs.board == rhs.board && lhs.favorite == rhs.favorite
        && lhs.session == rhs.session && lhs.lastMove?.row == rhs.lastMove?.row
        && lhs.lastMove?.column == rhs.lastMove?.column && lhs.id == rhs.id
        && lhs.nested == rhs.nested && lhs.stamps == rhs.stamps && lhs.tags == rhs.tags
        && String(describing: lhs.forecast) == String(describing: rhs.forecast)
    }
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case favoriting(ShapeFavoriting)
    case forecastResponse(Result<ServerForecast, any Error>)
    case played(ShapePlayer, at: Int)
    case moved((row: Int, column: Int))
    case sessionVisited(ShapeSession)
    case stamped(String, ShapeStamp)
    case identified(AnyHashableSendable)
    case nested(Int??)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case let .favoriting(favoriting):
        state.favorite = favoriting
        return .none
      case let .forecastResponse(result):
        state.forecast = result
        return .none
      case let .played(player, index):
        switch index {
        case 0: state.board.first = player
        case 1: state.board.second = player
        default: state.board.third = player
        }
        state.tags.insert(player)
        return .none
      case let .moved(move):
        state.lastMove = move
        return .none
      case let .sessionVisited(session):
        state.session = ShapeSession(name: session.name, visits: session.visits + 1)
        return .none
      case let .stamped(key, stamp):
        state.stamps[key] = stamp
        return .none
      case let .identified(id):
        state.id = id
        return .none
      case let .nested(value):
        state.nested = value
        return .none
      }
    }
  }
}

@MainActor
@Suite struct RecordedShapesTests {
  static let forecastJSON = Data(
    #"{"temperature_2m_max":[21.5,19],"time":[0,86400],"daily_units":{"temperature_2m_max":"°C"}}"#
      .utf8)

  static func actions() throws -> [Shapes.Action] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let forecast = try decoder.decode(ServerForecast.self, from: Self.forecastJSON)
    let stamp = ShapeStamp(
      date: Date(timeIntervalSince1970: 1_000), data: Data([0, 1, 255]),
      url: URL(string: "https://example.com/a?b=c")!,
      uuid: UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!,
      decimal: Decimal(string: "12.34")!, duration: .milliseconds(1_500))
    return [
      .binding(.set(\.filter, .completed)),
      .forecastResponse(.failure(URLError(.notConnectedToInternet))),
      .forecastResponse(.success(forecast)),
      .favoriting(.buttonTapped),
      .favoriting(.response(.success(true))),
      .favoriting(.response(.failure(ShapeError(reason: "offline")))),
      .favoriting(.moved(row: 2, column: 1)),
      .played(.x, at: 0),
      .played(.o, at: 2),
      .moved((row: 1, column: 2)),
      .sessionVisited(ShapeSession(name: "Blob Jr.", visits: 3)),
      .stamped("first", stamp),
      .identified(AnyHashableSendable("a string id")),
      .identified(AnyHashableSendable(42)),
      .nested(.some(.some(7))),
      .nested(.none),
      .nested(.some(nil)),
    ]
  }

  /// Records the actions through a store, and returns the states the store went through.
  static func record(to url: URL) throws -> [Shapes.State] {
    let recorder = try RecorderOf<Shapes>(
      url: url, feature: "shapes", initialState: Shapes.State(), checkpointInterval: 5)
    let store = Store(initialState: Shapes.State()) { Shapes().recording(to: recorder) }
    var states = [store.state]
    for action in try Self.actions() {
      store.send(action)
      states.append(store.state)
    }
    try recorder.close()
    return states
  }

  @Test func everyShapeIsRecordedAndReplaysToTheStatesTheStoreWentThrough() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let states = try Self.record(to: url)
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == states.count - 1)
    let notes = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains(#""kind":"note""#) }
    #expect(notes.isEmpty, "the recorder held everything")
    let timeline = try Timeline(recording: recording, reducer: Shapes(), feature: "shapes")
    #expect(try timeline.verify() == nil)
    for (step, expected) in states.enumerated() {
      try timeline.goto(step)
      #expect(
        timeline.state == expected, "at step \(step): \(diff(expected, timeline.state) ?? "")")
    }
  }

  @Test func eachActionReadsBackAsTheActionSent() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try Self.record(to: url)
    let recording = try Recording(contentsOf: url)
    let sent = try Self.actions()
    for step in 1...recording.count {
      let read = try recording.action(step, as: _Reflected<Shapes.Action>.self).action.value
      #expect(String(customDumping: read) == String(customDumping: sent[step - 1]))
    }
  }

  @Test func aDecodableOnlyModelIsWrittenUnderItsPropertiesAndReadTheSameWay() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try Self.record(to: url)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let forecast = try #require(
      lines.first { $0.contains("forecastResponse") && $0.contains("success") })
    // NB: Written as reflection writes it (the properties' names), not with the server's keys,
    // which only its `Decodable` half knows: what reflection writes is what it reads back.
    #expect(forecast.contains(#""temperatureMax":[21.5,19]"#))
    #expect(!forecast.contains("temperature_2m_max"))
  }

  /// A test store keeps its run and checks, as it finishes, that the run replays: a run that
  /// does not fails this test.
  @Test func aTestStoreHoldsEveryShapeAndItsRunReplays() async throws {
    let directory = TemporaryDirectory()
    do {
      let store = TestStore(
        initialState: Shapes.State(), recording: .everyRun(in: directory.url)
      ) {
        Shapes()
      }
      store.exhaustivity = .off
      for action in try Self.actions() {
        await store.send(action)
      }
    }
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(kept.filter { $0.hasSuffix(".actionlog") }.count == 1)
  }
}

/// Elements identified by file URLs, as TCA's VoiceMemos identifies its memos, each with an
/// effect cancelled by its identity.
@Reducer
struct FileMemos {
  @ObservableState
  struct State: Equatable {
    var memos: IdentifiedArrayOf<FileMemo.State> = []
  }
  enum Action {
    case memos(IdentifiedActionOf<FileMemo>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.memos, action: \.memos) { FileMemo() }
  }
}

@Reducer
struct FileMemo {
  @ObservableState
  struct State: Equatable, Identifiable {
    var id: URL
    var isPlaying = false
  }
  enum Action { case playTapped, stopTapped }
  enum CancelID { case play }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .playTapped:
        state.isPlaying = true
        return .run { _ in try await Task.never() }.cancellable(id: CancelID.play)
      case .stopTapped:
        state.isPlaying = false
        return .cancel(id: CancelID.play)
      }
    }
  }
}

@MainActor
@Suite struct FileIdentifiedEffectsTests {
  /// A URL relative to the current folder describes itself with its base; the recording holds
  /// its absolute form, and the effects a replay starts are named by the same identity.
  @Test func effectsOfAnElementIdentifiedByARelativeFileURLReplay() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let id = URL(fileURLWithPath: "pointfreeco/functions.m4a")
    let initial = FileMemos.State(memos: [FileMemo.State(id: id)])
    let recorder = try RecorderOf<FileMemos>(url: url, feature: "memos", initialState: initial)
    let store = Store(initialState: initial) { FileMemos().recording(to: recorder) }
    store.send(.memos(.element(id: id, action: .playTapped)))
    store.send(.memos(.element(id: id, action: .stopTapped)))
    try recorder.close()
    let timeline = try Timeline(
      recording: try Recording(contentsOf: url), reducer: FileMemos(), feature: "memos")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
  }
}
