// Shared state as TCA apps write it: a count two features share in memory, settings in a file
// another program may rewrite, a flag in user defaults, and a test store that makes every change
// of them asserted.
import ComposableArchitecture
import Foundation
import TestSupport
import Testing

struct Settings: Codable, Equatable, Sendable {
  var theme = "light"
  var fontSize = 12
}

@Reducer
struct CounterTab {
  @ObservableState
  struct State: Equatable {
    @Shared var count: Int
  }
  enum Action: Equatable {
    case decrementButtonTapped
    case delayedIncrementButtonTapped
    case incrementButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.$count.withLock { $0 -= 1 }
        return .none
      case .delayedIncrementButtonTapped:
        return .run { [count = state.$count] _ in
          count.withLock { $0 += 1 }
        }
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}

@Reducer
struct StatsTab {
  @ObservableState
  struct State: Equatable {
    @SharedReader var count: Int
    var shown: [Int] = []
  }
  enum Action: Equatable {
    case showButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.shown.append(state.count)
      return .none
    }
  }
}

@Reducer
struct TabsApp {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
    var counter: CounterTab.State
    var stats: StatsTab.State

    init() {
      let count = Shared(.inMemory("count"), default: 0)
      self._count = count
      self.counter = CounterTab.State(count: count)
      self.stats = StatsTab.State(count: SharedReader(count))
    }
  }
  enum Action: Equatable {
    case counter(CounterTab.Action)
    case stats(StatsTab.Action)
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { CounterTab() }
    Scope(state: \.stats, action: \.stats) { StatsTab() }
  }
}

extension Shared {
  /// The value at `key`, starting from `value`: a test's shorthand.
  init(_ key: some SharedKey<Value>, default value: Value) {
    self.init(wrappedValue: value, key)
  }
}

@MainActor
@Suite struct SharedStateTests {
  @Test func twoFeaturesShareACountAndTheTestAssertsItsChanges() async {
    let store = TestStore(initialState: TabsApp.State()) { TabsApp() }
    await store.send(\.counter.incrementButtonTapped) {
      $0.$count.withLock { $0 = 1 }
    }
    await store.send(\.counter.decrementButtonTapped) {
      $0.counter.$count.withLock { $0 = 0 }
    }
    await store.send(\.stats.showButtonTapped) {
      $0.stats.shown = [0]
    }
    #expect(store.state.stats.count == 0)
  }

  @Test func aSharedChangeTheTestDidNotAssertFailsWithItsDiff() async {
    let store = TestStore(initialState: TabsApp.State()) { TabsApp() }
    let messages = LockIsolated<[String]>([])
    await withKnownIssue {
      await store.send(\.counter.incrementButtonTapped)
    } matching: { issue in
      messages.withValue { $0.append(issue.description) }
      return true
    }
    #expect(messages.value.count == 1)
    #expect(
      messages.value.first?.contains(
        """
        State was not expected to change, but a change occurred.
        """) == true, "\(messages.value)")
    #expect(messages.value.first?.contains("−     _count: 0,") == true, "\(messages.value)")
    #expect(messages.value.first?.contains("+     _count: 1,") == true, "\(messages.value)")
  }

  @Test func aWrongExpectationOfASharedValueFails() async {
    let store = TestStore(initialState: TabsApp.State()) { TabsApp() }
    await withKnownIssue {
      await store.send(\.counter.incrementButtonTapped) {
        $0.$count.withLock { $0 = 2 }
      }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
        && issue.description.contains("−     _count: 2,")
        && issue.description.contains("+     _count: 1,")
    }
  }

  @Test func aChangeAnEffectMadeIsAssertedAtTheNextStep() async {
    let store = TestStore(initialState: TabsApp.State()) { TabsApp() }
    let task = await store.send(\.counter.delayedIncrementButtonTapped)
    await task.finish()
    await store.send(\.stats.showButtonTapped) {
      $0.$count.withLock { $0 = 1 }
      $0.stats.shown = [1]
    }
  }

  @Test func twoStoresSharingAKeySeeEachOthersChanges() async {
    let first = TestStore(initialState: TabsApp.State()) { TabsApp() }
    let second = TestStore(initialState: TabsApp.State()) { TabsApp() }
    await first.send(\.counter.incrementButtonTapped) {
      $0.$count.withLock { $0 = 1 }
    }
    #expect(second.state.count == 1)
    await second.send(\.stats.showButtonTapped) {
      $0.stats.shown = [1]
    }
  }

  @Test func derivedAndUnwrappedSharesWriteThroughToTheWhole() {
    let settings = Shared(value: Settings())
    let theme = settings.theme
    theme.withLock { $0 = "dark" }
    #expect(settings.wrappedValue.theme == "dark")
    let optional = Shared<Settings?>(value: Settings(theme: "sepia"))
    let unwrapped = Shared(optional)
    unwrapped?.withLock { $0.fontSize = 14 }
    #expect(optional.wrappedValue?.fontSize == 14)
    #expect(Shared(Shared<Settings?>(value: nil)) == nil)
  }

  @Test func aStateWithSharedValuesEncodesAndComparesItsValues() throws {
    let state = TabsApp.State()
    state.$count.withLock { $0 = 3 }
    let other = TabsApp.State()
    #expect(state == other)  // one in-memory value
    struct Holder: Codable, Equatable {
      @Shared var settings: Settings
    }
    let holder = Holder(settings: Shared(value: Settings(theme: "dark")))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(holder), as: UTF8.self)
    #expect(json == #"{"settings":{"fontSize":12,"theme":"dark"}}"#)
    #expect(try JSONDecoder().decode(Holder.self, from: Data(json.utf8)) == holder)
  }
}

@Suite struct SharedStorageTests {
  let url = URL(fileURLWithPath: "/tmp/ComposableReplay-settings.json")

  @Test func aFileStoredValueIsWrittenAndRewrittenFromOutside() async throws {
    let storage = FileStorage.inMemory()
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(self.url)) var settings = Settings()
      @SharedReader(.fileStorage(self.url)) var reader = Settings()
      $settings.withLock { $0.theme = "dark" }
      storage.flush()
      let written = try JSONDecoder().decode(Settings.self, from: storage.read(self.url))
      #expect(written.theme == "dark")
      #expect(reader.theme == "dark")
      // Another program rewrites the file: every shared value of it takes the change.
      try storage.write(
        JSONEncoder().encode(Settings(theme: "sepia", fontSize: 20)), to: self.url)
      #expect(settings == Settings(theme: "sepia", fontSize: 20))
      #expect(reader == Settings(theme: "sepia", fontSize: 20))
    }
  }

  @Test func aFileOnDiskRewrittenByAnotherProgramIsSeen() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    try await withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      @Shared(.fileStorage(url)) var settings = Settings()
      $settings.withLock { $0.fontSize = 16 }
      FileStorage.fileSystem.flush()
      let written = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
      #expect(written.fontSize == 16)
      // Written as another program would: a new file renamed over the old one.
      let replacement = directory.file("replacement.json")
      try JSONEncoder().encode(Settings(theme: "dark", fontSize: 16)).write(to: replacement)
      #expect(rename(replacement.path, url.path) == 0)
      #expect(await eventually { settings.theme == "dark" })
      // Nothing but whole files is ever in the folder.
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      #expect(names == ["settings.json"])
    }
  }

  @Test func theFirstWriteRemovesWhatAKilledWriterLeft() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    let stale = directory.file(".settings.json.1234.tmp")
    let fresh = directory.file(".settings.json.5678.tmp")
    let other = directory.file(".other.json.1234.tmp")
    for file in [stale, fresh, other] { try Data("{".utf8).write(to: file) }
    let old = Date(timeIntervalSinceNow: -120)
    for file in [stale, other] {
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
    }
    withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      @Shared(.fileStorage(url)) var settings = Settings()
      $settings.withLock { $0.fontSize = 18 }
      FileStorage.fileSystem.flush()
    }
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    // The stale leftover of this file goes; one that may be a writer's at work now stays, and so
    // does another file's.
    #expect(names == ["settings.json", ".settings.json.5678.tmp", ".other.json.1234.tmp"])
  }

  @Test func aKeyWithADefault() {
    withDependencies {
      $0.defaultFileStorage = .inMemory()
    } operation: {
      @Shared(.settings) var settings
      #expect(settings == Settings(theme: "system"))
      $settings.withLock { $0.fontSize = 30 }
      @Shared(.settings) var again
      #expect(again.fontSize == 30)
    }
  }

  @Test func userDefaultsHoldAppStorage() async throws {
    let defaults = try #require(UserDefaults(suiteName: "ComposableReplayTests.\(UUID())"))
    await withDependencies {
      $0.defaultAppStorage = defaults
    } operation: {
      @Shared(.appStorage("isOn")) var isOn = false
      @Shared(.appStorage("name")) var name: String? = nil
      $isOn.withLock { $0 = true }
      #expect(defaults.bool(forKey: "isOn"))
      $name.withLock { $0 = "Blob" }
      #expect(defaults.string(forKey: "name") == "Blob")
      $name.withLock { $0 = nil }
      #expect(defaults.object(forKey: "name") == nil)
      defaults.set(false, forKey: "isOn")
      #expect(await eventually { !isOn })
    }
  }
}

extension SharedKey where Self == FileStorageKey<Settings>.Default {
  static var settings: Self {
    Self[
      .fileStorage(URL(fileURLWithPath: "/tmp/ComposableReplay-default-settings.json")),
      default: Settings(theme: "system")]
  }
}

@MainActor
@Suite struct SharedChangesTests {
  @Test func aRecorderLearnsWhichChangesNoReducerMade() async throws {
    let storage = FileStorage.inMemory()
    let url = URL(fileURLWithPath: "/tmp/ComposableReplay-observed.json")
    let changes = LockIsolated<[(key: String?, value: String, reducer: Bool, outside: Bool)]>([])
    let obtained = LockIsolated<[String?]>([])
    let subscription = SharedChanges.observe { change in
      guard change.key?.contains("observed") == true else { return }
      guard change.kind != .obtained else {
        obtained.withValue { $0.append(change.name) }
        return
      }
      changes.withValue {
        $0.append(
          (change.key, "\(change.value)", change.context != nil, change.isFromOutside))
      }
    }
    defer { subscription.cancel() }
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let store = Store(
        initialState: Observed.State(settings: Shared(.fileStorage(url), default: Settings()))
      ) {
        Observed()
      }
      store.send(.themeButtonTapped)
      try storage.write(JSONEncoder().encode(Settings(theme: "sepia")), to: url)
      #expect(store.state.settings.theme == "sepia")
    }
    #expect(changes.value.map(\.reducer) == [true, false])
    #expect(changes.value.map(\.outside) == [false, true])
    #expect(changes.value.first?.value.contains("dark") == true)
    #expect(changes.value.last?.value.contains("sepia") == true)
    #expect(changes.value.first?.key == ".fileStorage(/tmp/ComposableReplay-observed.json)")
    // The value made from the key is told too, named by the file alone.
    #expect(obtained.value == [".fileStorage(ComposableReplay-observed.json)"])
  }
}

@Reducer
struct Observed {
  @ObservableState
  struct State: Equatable {
    @Shared var settings: Settings
  }
  enum Action: Equatable {
    case themeButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.$settings.withLock { $0.theme = "dark" }
      return .none
    }
  }
}

/// The moments a recorder marks after each action, which keep what shared values were when a
/// state was captured.
@Suite struct SharedMomentTests {
  @Test func aLongLineOfMomentsIsLetGoWithoutRecursion() {
    let line = _SharedMomentLine()
    var first: _SharedMoment? = line.mark()
    // Each moment holds the next: letting go of the first lets go of every one after it, which
    // released one from the other would overflow the stack (a crash fails the run).
    for _ in 0..<300_000 { _ = line.mark() }
    first = nil
  }

  @Test func aStateCapturedAtAMomentEncodesItsSharedValueAsItWasThen() throws {
    let line = _SharedMomentLine()
    let count = Shared(value: 1)
    let moment = line.mark()
    count.withLock { $0 = 2 }
    count.withLock { $0 = 3 }
    let then = try moment.encoding { try JSONEncoder().encode(count) }
    #expect(String(decoding: then, as: UTF8.self) == "1")
    #expect(String(decoding: try JSONEncoder().encode(count), as: UTF8.self) == "3")
    let later = line.mark()
    count.withLock { $0 = 4 }
    #expect(
      String(decoding: try later.encoding { try JSONEncoder().encode(count) }, as: UTF8.self) == "3"
    )
    #expect(
      String(decoding: try moment.encoding { try JSONEncoder().encode(count) }, as: UTF8.self)
        == "1")
  }
}
