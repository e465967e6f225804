import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A feature holding every kind of shared value: in memory, in a file, in user defaults, a part
/// of a file's value handed to a child (a derived share), and one shared without a key.
@Reducer
struct SharedMix {
  static let settingsURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("ComposableReplay-mix-\(UUID().uuidString)/settings.json")

  struct Settings: Codable, Equatable, Sendable {
    var theme = "light"
    var size = 12
  }

  @ObservableState
  struct Child: Codable, Equatable {
    @Shared var theme: String
    var picks: [String] = []
  }

  @ObservableState
  struct State: Codable, Equatable {
    @Shared(.inMemory("mix-count")) var count = 0
    @Shared(.fileStorage(SharedMix.settingsURL)) var settings = Settings()
    @Shared(.appStorage("mix-isOn")) var isOn = false
    @Shared var ticks: Int
    var child: Child
    var seen: [String] = []

    init() {
      self._ticks = Shared(value: 0)
      @Shared(.fileStorage(SharedMix.settingsURL)) var settings = Settings()
      self.child = Child(theme: $settings.theme)
    }
  }

  enum Action: Codable, Equatable {
    case count(Int)
    case size(Int)
    case toggle
    case tick
    case pick(String)
    case look
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .count(delta): state.$count.withLock { $0 += delta }
      case let .size(size): state.$settings.withLock { $0.size = size }
      case .toggle: state.$isOn.withLock { $0.toggle() }
      case .tick: state.$ticks.withLock { $0 += 1 }
      case let .pick(theme):
        state.child.$theme.withLock { $0 = theme }
        state.child.picks.append(theme)
      case .look:
        state.seen.append(
          "\(state.count) \(state.settings.theme) \(state.settings.size) \(state.isOn) \(state.ticks)"
        )
      }
      return .none
    }
  }
}

/// Whatever path of moves reaches a step, the state a timeline shows there is the one the
/// recording holds (its step changes applied to the state before).
@MainActor
@Suite struct SharedTruthPropertyTests {
  /// Moves at random through `timeline` and checks the state at every stop.
  func walk<R: Reducer>(
    _ timeline: Timeline<R>, moves: Int, watch: String, seed: UInt64,
    diversion: R.Action
  ) throws where R.State: Codable & Equatable, R.Action: Decodable {
    var random = SplitMix64(seed: seed)
    let count = timeline.count
    var path: [String] = []
    for _ in 0..<moves {
      switch Int.random(in: 0..<8, using: &random) {
      case 0:
        let step = Int.random(in: 0...count, using: &random)
        path.append("goto \(step)")
        try timeline.goto(step)
      case 1:
        let by = min(Int.random(in: 1...3, using: &random), count - timeline.position)
        path.append("step \(by)")
        try timeline.step(by)
      case 2:
        let by = min(Int.random(in: 1...3, using: &random), timeline.position)
        path.append("back \(by)")
        try timeline.back(by)
      case 3:
        path.append("last")
        try timeline.goto(count)
      case 4:
        path.append("first")
        try timeline.goto(0)
      case 5:
        path.append("continue (watch \(watch))")
        _ = try timeline.continueForward(watching: [try StatePath(watch)], breakpoints: [])
      case 6:
        path.append("reverse-continue (watch \(watch))")
        _ = try timeline.reverseContinue(watching: [try StatePath(watch)], breakpoints: [])
      default:
        path.append("send, discard")
        _ = timeline.send(diversion)
        timeline.discardDiversion()
      }
      let shown = try JSONDecoder().decode(
        JSONValue.self, from: JSONEncoder().encode(timeline.state))
      let recorded = try timeline.recording.stateJSON(after: timeline.position)
      #expect(
        shown == recorded,
        """
        At step \(timeline.position) after \(path.joined(separator: ", ")) (seed \(seed)):
        shown    \(shown)
        recorded \(recorded)
        """)
      if shown != recorded { return }
    }
  }

  @Test func theBundledPreferencesRecording() throws {
    let recording = try Recording(contentsOf: bundledRecording("preferences"))
    for seed in 1...20 as ClosedRange<UInt64> {
      let timeline = try Timeline(
        recording: recording, reducer: Preferences(), feature: "preferences")
      try self.walk(
        timeline, moves: 30, watch: "page.preferences.theme", seed: seed,
        diversion: .appearance(.largerTextButtonTapped))
    }
  }

  @Test func theBudgetScenario() async throws {
    let directory = TemporaryDirectory()
    let recording = try await SharedTruthTests().recordBudget(
      to: directory.file(), storage: .inMemory())
    for seed in 1...20 as ClosedRange<UInt64> {
      let timeline = try Timeline(recording: recording, reducer: Budget(), feature: "budget")
      try self.walk(timeline, moves: 30, watch: "spent", seed: seed, diversion: .spend(5))
    }
  }

  /// Random sessions of every kind of shared value, with changes from outside between actions
  /// (another program writes the file, another store changes the count), at random checkpoint
  /// intervals.
  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func randomRecordings(seed: UInt64) async throws {
    var random = SplitMix64(seed: seed &* 7_919)
    let directory = TemporaryDirectory()
    let url = directory.file()
    let storage = FileStorage.inMemory()
    let defaults = try #require(UserDefaults(suiteName: "SharedTruthPropertyTests-\(UUID())"))
    try await withDependencies {
      $0.defaultFileStorage = storage
      $0.defaultAppStorage = defaults
    } operation: {
      let initial = SharedMix.State()
      let recorder = try RecorderOf<SharedMix>(
        url: url, feature: "mix", initialState: initial,
        checkpointInterval: Int.random(in: 1...7, using: &random))
      let store = Store(initialState: initial) { SharedMix().recording(to: recorder) }
      let other = Store(initialState: SharedMix.State()) { SharedMix() }
      for _ in 0..<Int.random(in: 10...40, using: &random) {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: store.send(.count(Int.random(in: 1...9, using: &random)))
        case 1: store.send(.size(Int.random(in: 8...30, using: &random)))
        case 2: store.send(.toggle)
        case 3: store.send(.tick)
        case 4: store.send(.pick(["dark", "sepia", "light"].randomElement(using: &random)!))
        case 5:
          let size = Int.random(in: 8...30, using: &random)
          let settings = SharedMix.Settings(theme: "outside-\(size)", size: size)
          try storage.write(JSONEncoder().encode(settings), to: SharedMix.settingsURL)
          #expect(await eventually { store.state.settings == settings })
        case 6:
          other.send(.count(100))
        default: store.send(.look)
        }
      }
      store.send(.look)
      try recorder.close()
    }
    let recording = try Recording(contentsOf: url)
    #expect(recording.hasSharedRecords)
    let timeline = try Timeline(recording: recording, reducer: SharedMix(), feature: "mix")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try self.walk(timeline, moves: 60, watch: "count", seed: seed, diversion: .count(1))
  }
}
