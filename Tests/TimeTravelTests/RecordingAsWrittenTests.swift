import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

// A feature written twice: once as TCA's apps write it (nothing `Codable`, nothing `Sendable`
// declared, a model from elsewhere, an error in an action), once with `Codable` declared
// everywhere it can be. A recording of either holds the same values.

/// A model without `Codable` and without a macro.
struct PlainItem: Equatable, Identifiable {
  var id: Int
  var title: String
  var tags: Set<String> = []
  var due: Date?
}

@Reducer
struct PlainList {
  @ObservableState
  struct State: Equatable {
    var items: [PlainItem] = []
    var filter = Filter.all
    var lastError: String?
  }

  enum Filter: Equatable { case all, tagged(String) }

  enum Action {
    case add(String, tags: Set<String>)
    case filter(Filter)
    case remove(id: Int)
    case response(Result<Int, any Error>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(title, tags):
        state.items.append(PlainItem(id: state.items.count, title: title, tags: tags))
      case let .filter(filter):
        state.filter = filter
      case let .remove(id):
        state.items.removeAll { $0.id == id }
      case .response(.success):
        state.lastError = nil
      case let .response(.failure(error)):
        state.lastError = error.localizedDescription
      }
      return .none
    }
  }
}

/// The same feature with `Codable` declared, for comparison.
struct CodedItem: Codable, Equatable, Identifiable {
  var id: Int
  var title: String
  var tags: Set<String> = []
  var due: Date?
}

@Reducer
struct CodedList {
  @ObservableState
  struct State: Codable, Equatable {
    var items: [CodedItem] = []
    var filter = Filter.all
    var lastError: String?
  }

  enum Filter: Codable, Equatable { case all, tagged(String) }

  enum Action: Codable {
    case add(String, tags: Set<String>)
    case filter(Filter)
    case remove(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(title, tags):
        state.items.append(CodedItem(id: state.items.count, title: title, tags: tags))
      case let .filter(filter):
        state.filter = filter
      case let .remove(id):
        state.items.removeAll { $0.id == id }
      }
      return .none
    }
  }
}

/// A state that holds a class: not `Sendable`, so the recorder encodes it where it is.
final class Counter: Equatable {
  var count = 0
  static func == (lhs: Counter, rhs: Counter) -> Bool { lhs.count == rhs.count }
}

@Reducer
struct ClassHolder {
  @ObservableState
  struct State: Equatable {
    var counter = Counter()
    var log: [Int] = []
  }
  enum Action { case tap }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.counter.count += 1
      state.log.append(state.counter.count)
      return .none
    }
  }
}

struct WeatherFailure: Error, Codable, Equatable {
  var city: String
}

private func json(_ text: String) throws -> JSONValue {
  try JSONValue.parse(Array(text.utf8))
}

@MainActor
@Suite struct RecordingAsWrittenTests {
  /// Every record's payload but the header's (which names the types) and the call sites'
  /// (the two sessions send from other lines): what the two recordings share.
  static func payloads(_ url: URL) throws -> [String] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { String($0.dropFirst(9)) }
      .filter { !$0.hasPrefix(#"{"kind":"site""#) }
  }

  @Test func aFeatureWithoutCodableRecordsWhatItsCodableTwinRecords() throws {
    let directory = TemporaryDirectory()
    let (plainURL, codedURL) = (directory.file("plain"), directory.file("coded"))
    let start = Date(timeIntervalSince1970: 0)
    let clock: @Sendable () -> Duration = { .zero }

    let plain = try RecorderOf<PlainList>(
      url: plainURL, feature: "list", initialState: PlainList.State(), checkpointInterval: 2,
      startedAt: start, elapsed: clock)
    let plainStore = Store(initialState: PlainList.State()) { PlainList().recording(to: plain) }
    plainStore.send(.add("milk", tags: ["food"]))
    plainStore.send(.add("mail", tags: []))
    plainStore.send(.filter(.tagged("food")))
    plainStore.send(.remove(id: 0))
    try plain.close()

    let coded = try RecorderOf<CodedList>(
      url: codedURL, feature: "list", initialState: CodedList.State(), checkpointInterval: 2,
      startedAt: start, elapsed: clock)
    let codedStore = Store(initialState: CodedList.State()) { CodedList().recording(to: coded) }
    codedStore.send(.add("milk", tags: ["food"]))
    codedStore.send(.add("mail", tags: []))
    codedStore.send(.filter(.tagged("food")))
    codedStore.send(.remove(id: 0))
    try coded.close()

    let (plainPayloads, codedPayloads) = (try Self.payloads(plainURL), try Self.payloads(codedURL))
    #expect(plainPayloads.count == codedPayloads.count)
    for (plain, coded) in zip(plainPayloads, codedPayloads) {
      #expect(plain == coded)
    }
    let recording = try Recording(contentsOf: plainURL)
    #expect(recording.count == 4)
    #expect(recording.ending == .clean)
    #expect(
      try recording.stateJSON(after: 4)
        == json(
          #"{"filter":{"tagged":{"_0":"food"}},"items":[{"id":1,"tags":[],"title":"mail"}]}"#))
  }

  @Test func anErrorIsRecordedWithItsTypeAndItsDescription() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<PlainList>(
      url: url, feature: "list", initialState: PlainList.State())
    let store = Store(initialState: PlainList.State()) { PlainList().recording(to: recorder) }
    store.send(.response(.failure(WeatherFailure(city: "Oslo"))))
    store.send(.response(.failure(URLError(.notConnectedToInternet))))
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    let first = try json(recording.actionJSON(1))
    #expect(
      try first
        == json(
          #"""
          {"response":{"_0":{"failure":{"_0":{"error":"TimeTravelTests.WeatherFailure",\#
          "localizedDescription":"\#(WeatherFailure(city: "Oslo").localizedDescription)",\#
          "value":{"city":"Oslo"}}}}}}
          """#))
    let second = try json(recording.actionJSON(2))
    let error = second["response"]?["_0"]?["failure"]?["_0"]
    #expect(error?["error"] == JSONValue.string("Foundation.URLError"))
    #expect(
      error?["localizedDescription"]
        == JSONValue.string(URLError(.notConnectedToInternet).localizedDescription))
  }

  @Test func aStateThatIsNotSendableIsEncodedWhereItIs() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<ClassHolder>(
      url: url, feature: "holder", initialState: ClassHolder.State(), checkpointInterval: 2)
    let store = Store(initialState: ClassHolder.State()) { ClassHolder().recording(to: recorder) }
    for _ in 1...3 { store.send(.tap) }
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    // NB: The class is shared by every state: each step holds it as it was when recorded.
    for step in 1...3 {
      #expect(
        try recording.stateJSON(after: step)
          == json(#"{"counter":{"count":\#(step)},"log":\#(Array(1...step))}"#))
    }
  }
}
