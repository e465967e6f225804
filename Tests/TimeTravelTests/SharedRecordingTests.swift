import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A recording keeps what its state shares as an input: where each value sits, and the changes
/// the recorded reducers did not make, which a replay applies where they happened.
@MainActor
@Suite struct SharedRecordingTests {
  let preferencesURL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("ComposableReplay-example/reading-preferences.json")

  /// Records the preferences feature: larger text, the file rewritten from outside, a page
  /// rendered with what the file now says, the theme changed.
  func recordPreferences(to url: URL) async throws -> Recording {
    let storage = FileStorage.inMemory()
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let initial = Preferences.State()
      let recorder = try RecorderOf<Preferences>(
        url: url, feature: "preferences", initialState: initial, checkpointInterval: 2)
      let store = Store(initialState: initial) { Preferences().recording(to: recorder) }
      store.send(.appearance(.largerTextButtonTapped))
      try storage.write(
        JSONEncoder().encode(ReadingPreferences(fontSize: 20, theme: "sepia")),
        to: self.preferencesURL)
      #expect(await eventually { store.state.page.preferences.theme == "sepia" })
      store.send(.page(.renderButtonTapped))
      store.send(.appearance(.themePicked("dark")))
      store.send(.page(.renderButtonTapped))
      try recorder.close()
    }
    return try Recording(contentsOf: url)
  }

  @Test func aChangeFromOutsideIsRecordedWhereItWasSeen() async throws {
    let directory = TemporaryDirectory()
    let recording = try await self.recordPreferences(to: directory.file())
    let records = try recording.sharedRecords()
    let name = ".fileStorage(reading-preferences.json)"
    #expect(
      records.first
        == RecordedShared(
          seq: 0,
          change: .places([name: ["/appearance/preferences", "/page/preferences"]])))
    let values = records.compactMap { record -> (Int, String, RecordedShared.Source)? in
      guard case let .value(name, source, value) = record.change else { return nil }
      return (record.seq, "\(name) \(value.text)", source)
    }
    #expect(values.count == 1)
    #expect(values.first?.0 == 1)
    #expect(values.first?.1 == #"\#(name) {"fontSize":20,"theme":"sepia"}"#)
    #expect(values.first?.2 == .outside)
    // Places are written after each checkpoint too, so a replay can start there.
    #expect(try recording.sharedPlaces(after: 2)?[name]?.count == 2)
  }

  @Test func aReplayAppliesTheChangeAndReproducesEveryStep() async throws {
    let directory = TemporaryDirectory()
    let recording = try await self.recordPreferences(to: directory.file())
    let timeline = try Timeline(
      recording: recording, reducer: Preferences(), feature: "preferences")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try timeline.goto(2)
    #expect(timeline.state.page.rendered == ["sepia 20pt"])
    // The two screens share one value in the replay too.
    try timeline.goto(3)
    #expect(timeline.state.page.preferences.theme == "dark")
    #expect(timeline.state.appearance.preferences.theme == "dark")
  }

  @Test func aStateGoneBackToKeepsItsSharedValuesAsTheyWere() async throws {
    let directory = TemporaryDirectory()
    let recording = try await self.recordPreferences(to: directory.file())
    let timeline = try Timeline(
      recording: recording, reducer: Preferences(), feature: "preferences")
    try timeline.goto(4)
    try timeline.goto(1)
    #expect(timeline.state.appearance.preferences == ReadingPreferences(fontSize: 16))
    let diff = try #require(try timeline.diff(from: 2, to: 3))
    let lines = diff.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("-") && $0.contains(#"theme: "sepia""#) })
    #expect(lines.contains { $0.hasPrefix("+") && $0.contains(#"theme: "dark""#) })
    // From a checkpoint, the places are joined again: a change to one reaches the other.
    try timeline.goto(4)
    #expect(timeline.state.page.rendered == ["sepia 20pt", "dark 20pt"])
  }

  @Test func withoutTheOutsideChangeVerifyNamesTheStepThatDiverges() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try await self.recordPreferences(to: url)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let kept = lines.filter { !$0.contains(#""source":"outside""#) }
    #expect(kept.count == lines.count - 1)
    let edited = directory.file("edited.actionlog")
    try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: edited)
    let timeline = try Timeline(
      recording: try Recording(contentsOf: edited), reducer: Preferences(),
      feature: "preferences")
    let divergence = try #require(try timeline.verify())
    #expect(divergence.checkpoint == 2)
    #expect(divergence.diff?.contains("sepia") == true)
  }

  @Test func aDiversionLeavesTheStateItStartedFromAsItWas() async throws {
    let directory = TemporaryDirectory()
    let recording = try await self.recordPreferences(to: directory.file())
    let timeline = try Timeline(
      recording: recording, reducer: Preferences(), feature: "preferences")
    try timeline.goto(1)
    let (before, _) = timeline.send(.appearance(.largerTextButtonTapped))
    #expect(before.appearance.preferences.fontSize == 16)
    #expect(timeline.diversion?.state.page.preferences.fontSize == 18)
    #expect(timeline.state.appearance.preferences.fontSize == 16)
    timeline.discardDiversion()
    try timeline.goto(2)
    #expect(timeline.state.page.rendered == ["sepia 20pt"])
  }
}

/// A value shared without a key, changed by an effect: the recording says where it sits and
/// what the effect made of it.
@Reducer
struct SharedTicker {
  @ObservableState
  struct State: Codable, Equatable {
    @Shared var ticks: Int
    var seen: [Int] = []
  }

  enum Action: Codable, Equatable {
    case tickButtonTapped
    case lookButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tickButtonTapped:
        return .run { [ticks = state.$ticks] _ in ticks.withLock { $0 += 10 } }
      case .lookButtonTapped:
        state.seen.append(state.ticks)
        return .none
      }
    }
  }
}

@MainActor
@Suite struct UnkeyedSharedRecordingTests {
  @Test func anEffectsChangeIsRecordedAndReplayed() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let initial = SharedTicker.State(ticks: Shared(value: 1))
    let recorder = try RecorderOf<SharedTicker>(
      url: url, feature: "ticker", initialState: initial)
    let store = Store(initialState: initial) { SharedTicker().recording(to: recorder) }
    await store.send(.tickButtonTapped).finish()
    store.send(.lookButtonTapped)
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    let records = try recording.sharedRecords()
    #expect(records.first == RecordedShared(seq: 0, change: .places(["#1": ["/ticks"]])))
    #expect(
      records.dropFirst().first
        == RecordedShared(seq: 1, change: .value(name: "#1", source: .app, value: .integer(11))))
    let timeline = try Timeline(recording: recording, reducer: SharedTicker(), feature: "ticker")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try timeline.goto(2)
    #expect(timeline.state.seen == [11])
  }
}

/// A screen whose state reads a file's value when it is made: a reducer that presents it reads
/// the file, an input the recording keeps.
@Reducer
struct LevelOpener {
  static let levelURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("ComposableReplay-level-\(UUID().uuidString).json")

  struct Screen: Codable, Equatable {
    @Shared var level: Int
    init() { self._level = Shared(wrappedValue: 0, .fileStorage(LevelOpener.levelURL)) }
  }

  @ObservableState
  struct State: Codable, Equatable {
    var screen: Screen?
    var seen: [Int] = []
  }

  enum Action: Codable, Equatable {
    case open, bump, close
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open:
        state.screen = Screen()
        state.seen.append(state.screen!.level)
      case .bump:
        state.screen?.$level.withLock { $0 += 1 }
      case .close:
        state.screen = nil
      }
      return .none
    }
  }
}

@MainActor
@Suite struct SharedKeyReplayTests {
  @Test func whatAReducerReadFromAKeyIsReplayedWithoutTouchingTheFile() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let storage = FileStorage.inMemory()
    try storage.write(Data("5".utf8), to: LevelOpener.levelURL)
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let recorder = try RecorderOf<LevelOpener>(
        url: url, feature: "level", initialState: LevelOpener.State())
      let store = Store(initialState: LevelOpener.State()) {
        LevelOpener().recording(to: recorder)
      }
      for action in [LevelOpener.Action.open, .bump, .close, .open, .bump] {
        store.send(action)
      }
      #expect(store.state.seen == [5, 6])
      try recorder.close()
    }
    let recording = try Recording(contentsOf: url)
    let loads = try recording.sharedRecords().compactMap { record -> Int? in
      guard case .value(_, .load, _) = record.change else { return nil }
      return record.seq
    }
    #expect(loads == [0, 3])
    try withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      let timeline = try Timeline(recording: recording, reducer: LevelOpener(), feature: "level")
      let divergence = try timeline.verify()
      #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
      try timeline.goto(5)
      #expect(timeline.state.seen == [5, 6])
    }
    #expect(!FileManager.default.fileExists(atPath: LevelOpener.levelURL.path))
  }
}
