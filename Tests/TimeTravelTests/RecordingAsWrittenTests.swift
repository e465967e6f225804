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

/// A model's mark: an enum with values, declared without `Codable` and out of the macros' reach,
/// which reflection writes but cannot build again.
/// An `indirect` enum: boxed by the compiler, the one shape of enum reflection cannot build.
indirect enum PlainMark: Equatable {
  case flagged(reason: String)
  case clear
}

struct MarkedItem: Equatable {
  var title: String
  var mark: PlainMark
}

@Reducer
struct MarkedList {
  @ObservableState
  struct State: Equatable {
    var items: [MarkedItem] = []
  }
  enum Action { case flag(String) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case let .flag(title) = action else { return .none }
      state.items.append(MarkedItem(title: title, mark: .flagged(reason: "late")))
      return .none
    }
  }
}

/// A model that is a plain struct of rebuildable values, an enum with a raw value, an
/// optional and an array of such structs: what SyncUps' speech results are.
enum PlainStatus: Int, Equatable {
  case denied, authorized
}

struct PlainSegment: Equatable {
  var substring: String
  var confidence: Float
}

struct PlainTranscript: Equatable {
  var text: String
  var segments: [PlainSegment]
  var status: PlainStatus
  var best: PlainSegment?
  var wrapped: Shared<Int>
}

@Reducer
struct Transcripts {
  @ObservableState
  struct State: Equatable {
    var last: PlainTranscript?
    var count = 0
  }
  enum Action { case heard(PlainTranscript) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case let .heard(transcript) = action else { return .none }
      state.last = transcript
      state.count += transcript.segments.count
      return .none
    }
  }
}

struct WeatherFailure: Error, Codable, Equatable {
  var city: String
}

struct Opaque: Error {}

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

/// A feature written as TCA's apps write them whose values all decode: its recording replays.
@Reducer
struct Forecasts {
  @ObservableState
  struct State: Equatable {
    var temperatures: [Double] = []
    var failures: [String] = []
    var lastFailure: Failure?

    enum Failure: Equatable { case offline, other(String) }
  }

  enum Action {
    case response(Result<Double, any Error>)
    case cleared
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .response(.success(temperature)):
        state.temperatures.append(temperature)
      case let .response(.failure(error)):
        state.failures.append(error.localizedDescription)
        state.lastFailure = error is URLError ? .offline : .other(error.localizedDescription)
      case .cleared:
        state = State()
      }
      return .none
    }
  }
}

@MainActor
@Suite struct ReplayAsWrittenTests {
  func recordForecasts(to url: URL) throws -> Recording {
    let recorder = try RecorderOf<Forecasts>(
      url: url, feature: "forecasts", initialState: Forecasts.State(), checkpointInterval: 2)
    let store = Store(initialState: Forecasts.State()) { Forecasts().recording(to: recorder) }
    store.send(.response(.success(21.5)))
    store.send(.response(.failure(URLError(.notConnectedToInternet))))
    store.send(.response(.failure(WeatherFailure(city: "Oslo"))))
    store.send(.response(.success(19)))
    store.send(.response(.failure(Opaque())))
    try recorder.close()
    return try Recording(contentsOf: url)
  }

  @Test func aFeatureWithoutCodableReplaysEveryStep() throws {
    let directory = TemporaryDirectory()
    let recording = try self.recordForecasts(to: directory.file())
    let timeline = try Timeline(recording: recording, reducer: Forecasts(), feature: "forecasts")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try timeline.goto(4)
    #expect(timeline.state.temperatures == [21.5, 19])
    #expect(timeline.state.lastFailure == .other(WeatherFailure(city: "Oslo").localizedDescription))
    try timeline.goto(5)
    #expect(timeline.state.lastFailure == .other(Opaque().localizedDescription))
  }

  @Test func aRecordedErrorIsReplayedAsTheErrorItWas() throws {
    let directory = TemporaryDirectory()
    let recording = try self.recordForecasts(to: directory.file())
    let timeline = try Timeline(recording: recording, reducer: Forecasts(), feature: "forecasts")
    // An error whose type decodes comes back as itself.
    guard case let .response(.failure(codable)) = try timeline.action(at: 3).action else {
      Issue.record("step 3 is not a failure")
      return
    }
    #expect(codable as? WeatherFailure == WeatherFailure(city: "Oslo"))
    // Foundation's URLError comes back from its code.
    guard case let .response(.failure(offline)) = try timeline.action(at: 2).action else {
      Issue.record("step 2 is not a failure")
      return
    }
    #expect(offline as? URLError == URLError(.notConnectedToInternet))
    // One that is not `Codable` comes back as itself too, built from its values.
    guard case let .response(.failure(opaque)) = try timeline.action(at: 5).action else {
      Issue.record("step 5 is not a failure")
      return
    }
    #expect(opaque is Opaque)
    #expect(opaque.localizedDescription == Opaque().localizedDescription)
    // Where the type is not in the build, a stand-in says what the error said, named by its
    // type.
    let written =
      #"{"failure":{"_0":{"error":"TimeTravelTests.Gone","localizedDescription":"It went."}}}"#
    let read = try JSONDecoder().decode(
      _Reflected<Result<Int, any Error>>.self, from: Data(written.utf8)
    ).value
    guard case let .failure(standIn) = read else {
      Issue.record("not a failure")
      return
    }
    #expect(
      standIn as? RecordedError
        == RecordedError(typeName: "TimeTravelTests.Gone", localizedDescription: "It went."))
    #expect("\(standIn)" == "Gone(\"It went.\")")
  }

  @Test func aPlainModelWithoutCodableReplaysBuiltByReflection() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<PlainList>(
      url: url, feature: "list", initialState: PlainList.State())
    let store = Store(initialState: PlainList.State()) { PlainList().recording(to: recorder) }
    store.send(.add("milk", tags: ["dairy"]))
    store.send(.add("bread", tags: []))
    store.send(.remove(id: 0))
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    let timeline = try Timeline(recording: recording, reducer: PlainList(), feature: "list")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    try timeline.goto(2)
    #expect(
      timeline.state.items == [
        PlainItem(id: 0, title: "milk", tags: ["dairy"]), PlainItem(id: 1, title: "bread"),
      ])
  }

  @Test func aPayloadOfPlainStructsRawValuesOptionalsAndArraysReplays() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Transcripts>(
      url: url, feature: "transcripts", initialState: Transcripts.State())
    let store = Store(initialState: Transcripts.State()) {
      Transcripts().recording(to: recorder)
    }
    let heard = PlainTranscript(
      text: "Shipped it",
      segments: [
        PlainSegment(substring: "Shipped", confidence: 0.5),
        PlainSegment(substring: "it", confidence: 1),
      ],
      status: .authorized, best: nil, wrapped: Shared(value: 3))
    store.send(.heard(heard))
    var second = heard
    second.best = PlainSegment(substring: "it", confidence: 1)
    second.segments = []
    second.status = .denied
    store.send(.heard(second))
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    let timeline = try Timeline(
      recording: recording, reducer: Transcripts(), feature: "transcripts")
    let divergence = try timeline.verify()
    #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
    guard case let .heard(first) = try timeline.action(at: 1).action,
      case let .heard(last) = try timeline.action(at: 2).action
    else {
      Issue.record("not the actions sent")
      return
    }
    #expect(first.text == heard.text && first.segments == heard.segments)
    #expect(first.status == .authorized && first.best == nil && first.wrapped.wrappedValue == 3)
    #expect(last.best == second.best && last.status == .denied && last.segments.isEmpty)
  }

  @Test func aModelReflectionCannotBuildStopsTheReplayWithItsNameAndTheLineToAdd() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<MarkedList>(
      url: url, feature: "marked", initialState: MarkedList.State())
    let store = Store(initialState: MarkedList.State()) { MarkedList().recording(to: recorder) }
    store.send(.flag("milk"))
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    // Every step still reads, from the recording alone.
    #expect(try recording.stateJSON(after: 1)["items"] != nil)
    let timeline = try Timeline(recording: recording, reducer: MarkedList(), feature: "marked")
    #expect {
      try timeline.goto(1)
      _ = try timeline.verify()
    } throws: { error in
      let text = "\(error)"
      return text.contains("cannot be replayed: A recorded PlainMark at value.items.0.mark")
        && text.contains("extension PlainMark: Codable {}")
        && !text.contains("another version")
    }
  }
}

/// A state that says it is `Codable` in an extension, as an app may: it compiles beside the
/// macro, and codes as synthesized `Codable` does.
@Reducer
struct ExtendedCodable {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
  enum Action {
    case tapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

extension ExtendedCodable.State: Codable {}

@Suite struct DeclaredElsewhereTests {
  @Test func aConformanceDeclaredInAnExtensionIsKept() throws {
    let data = try JSONEncoder().encode(ExtendedCodable.State(count: 2))
    #expect(String(decoding: data, as: UTF8.self) == #"{"count":2}"#)
    #expect(try JSONDecoder().decode(ExtendedCodable.State.self, from: data).count == 2)
  }
}

/// A model declared on its own with `@ObservableState` and no `Codable`: the macro gives it the
/// conformance a recording needs, an enum with values included, which reflection cannot build.
@ObservableState
enum Reading: Equatable {
  case none
  case page(Int, of: Int)
}

@ObservableState
struct Bookmark: Equatable {
  var title: String
  var reading: Reading
}

@Reducer
struct Shelf {
  @ObservableState
  struct State: Equatable {
    var bookmarks: [Bookmark] = []
  }
  enum Action { case read(String, page: Int) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case let .read(title, page) = action else { return .none }
      state.bookmarks.append(Bookmark(title: title, reading: .page(page, of: 300)))
      return .none
    }
  }
}

@MainActor
@Suite struct ObservableStateModelTests {
  @Test func aModelWithObservableStateAloneRecordsAndReplays() throws {
    #expect(Reading.self is any Codable.Type && Bookmark.self is any _JSONDecodable.Type)
    let directory = TemporaryDirectory()
    let url = directory.file()
    let recorder = try RecorderOf<Shelf>(url: url, feature: "shelf", initialState: Shelf.State())
    let store = Store(initialState: Shelf.State()) { Shelf().recording(to: recorder) }
    store.send(.read("Dune", page: 12))
    store.send(.read("Emma", page: 3))
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    #expect(
      try recording.stateJSON(after: 1).text
        == #"{"bookmarks":[{"reading":{"page":{"_0":12,"of":300}},"title":"Dune"}]}"#)
    let timeline = try Timeline(recording: recording, reducer: Shelf(), feature: "shelf")
    #expect(try timeline.verify() == nil)
    try timeline.goto(2)
    #expect(timeline.state.bookmarks.last == Bookmark(title: "Emma", reading: .page(3, of: 300)))
  }
}
