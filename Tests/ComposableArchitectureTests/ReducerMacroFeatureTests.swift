// Features written as TCA's documentation has written them since 2024: `@Reducer`,
// `@ObservableState`, an enum of destinations, a `@DependencyClient`; with only
// `import ComposableArchitecture`.
import ComposableArchitecture
import Foundation
import Testing

@DependencyClient
struct FactClient: Sendable {
  var fetch: @Sendable (_ number: Int) async throws -> String
}

extension FactClient: TestDependencyKey {
  static let testValue = Self()
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

@Reducer
struct MacroCounter {
  @ObservableState
  struct State: Codable, Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
  }

  enum Action: Codable, Equatable {
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
    case incrementButtonTapped
  }

  @Dependency(\.factClient) var factClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        state.fact = nil
        return .none
      case .factButtonTapped:
        state.fact = nil
        state.isLoading = true
        return .run { [count = state.count] send in
          try await send(.factResponse(self.factClient.fetch(count)))
        }
      case let .factResponse(fact):
        state.fact = fact
        state.isLoading = false
        return .none
      case .incrementButtonTapped:
        state.count += 1
        state.fact = nil
        return .none
      }
    }
  }
}

@Reducer
struct MacroSettings {
  @ObservableState
  struct State: Codable, Equatable {
    var isOn = false
  }
  enum Action: Codable, Equatable {
    case toggleTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      state.isOn.toggle()
      return .none
    }
  }
}

/// A feature with no state or actions of its own: `@Reducer` writes them.
@Reducer
struct MacroPlaceholder {}

@Reducer
struct MacroLoader {
  @ObservableState
  enum State: Equatable {
    case loading
    case loaded(MacroCounter.State)
  }
  enum Action: Equatable {
    case counter(MacroCounter.Action)
    case loaded(Int)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case let .loaded(count) = action { state = .loaded(MacroCounter.State(count: count)) }
      return .none
    }
    .ifCaseLet(\.loaded, action: \.counter) {
      MacroCounter()
    }
  }
}

@Reducer
struct MacroRoot {
  @Reducer(state: .codable, .equatable, action: .codable, .equatable)
  enum Destination {
    case counter(MacroCounter)
    case settings(MacroSettings)
  }

  @ObservableState
  struct State: Codable, Equatable {
    var destination: Destination.State?
  }

  enum Action: Codable, Equatable {
    case counterButtonTapped
    case destination(Destination.Action)
    case settingsButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .counterButtonTapped:
        state.destination = .counter(MacroCounter.State())
        return .none
      case .destination:
        return .none
      case .settingsButtonTapped:
        state.destination = .settings(MacroSettings.State())
        return .none
      }
    }
    .ifLet(\.destination, action: \.destination)
  }
}

@MainActor
@Suite struct ReducerMacroFeatureTests {
  @Test func aMacroFeaturePassesAnExhaustiveTestStore() async {
    let store = TestStore(initialState: MacroCounter.State()) {
      MacroCounter()
    } withDependencies: {
      $0.factClient.fetch = { "\($0) is a good number." }
    }
    await store.send(.incrementButtonTapped) {
      $0.count = 1
    }
    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(\.factResponse) {
      $0.fact = "1 is a good number."
      $0.isLoading = false
    }
  }

  @Test func anUnimplementedClientEndpointFailsTheTest() async {
    let store = TestStore(initialState: MacroCounter.State()) { MacroCounter() }
    await withKnownIssue {
      await store.send(.factButtonTapped) {
        $0.isLoading = true
      }
      await store.finish()
    }
  }

  @Test func anEnumOfFeaturesRunsTheFeatureOfItsCase() async {
    let store = TestStore(initialState: MacroRoot.State()) { MacroRoot() }
    await store.send(.counterButtonTapped) {
      $0.destination = .counter(MacroCounter.State())
    }
    await store.send(\.destination.counter.incrementButtonTapped) {
      $0.destination?.counter?.count = 1
    }
    await store.send(.settingsButtonTapped) {
      $0.destination = .settings(MacroSettings.State())
    }
    await store.send(\.destination.settings.toggleTapped) {
      $0.destination?.settings?.isOn = true
    }
  }

  @Test func anEnumStateHasCasePathsAndDynamicMembers() async {
    let store = TestStore(initialState: MacroLoader.State.loading) { MacroLoader() }
    await store.send(.loaded(41)) {
      $0 = .loaded(MacroCounter.State(count: 41))
    }
    await store.send(\.counter.incrementButtonTapped) {
      $0.loaded?.count = 42
    }
    #expect(store.state.is(\.loaded))
  }

  @Test func stubsMakeAFeatureOfNothing() {
    let store = Store(initialState: MacroPlaceholder.State()) { MacroPlaceholder() }
    #expect(store.state == MacroPlaceholder.State())
  }

  @Test func theMacrosKeepStateCodableAsWritten() throws {
    let state = MacroRoot.State(destination: .counter(MacroCounter.State(count: 3)))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(json == #"{"destination":{"counter":{"_0":{"count":3,"isLoading":false}}}}"#)
    #expect(try JSONDecoder().decode(MacroRoot.State.self, from: Data(json.utf8)) == state)
  }
}
