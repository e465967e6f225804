import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A state whose members have the names a collection also answers to.
@Reducer
struct MemberNames {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var first = "none"
    var isEmpty = true
    var last: Int?
    var items: [Int] = []
  }

  enum Action: Equatable {
    case add(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(value):
        state.count += value
        if state.isEmpty { state.first = "item \(value)" }
        state.isEmpty = false
        state.last = value
        state.items.append(value)
        return .none
      }
    }
  }
}

/// A path reads the member it names, in a replay without the feature's code as in a typed one:
/// `count` is the state's `count`, not the size of its JSON object; a collection's size is
/// `@count` everywhere.
@MainActor
@Suite struct ReadOnlyMemberNamesTests {
  static let added = [2, 5, 1]

  static func record(in directory: TemporaryDirectory) throws -> (URL, [MemberNames.State]) {
    let url = directory.file("members.actionlog")
    let recorder = try RecorderOf<MemberNames>(
      url: url, feature: "members", initialState: MemberNames.State(), checkpointInterval: 2)
    let store = Store(initialState: MemberNames.State()) { MemberNames().recording(to: recorder) }
    var states = [store.state]
    for value in Self.added {
      store.send(.add(value))
      states.append(store.state)
    }
    try recorder.close()
    return (url, states)
  }

  @Test func printReadsTheNamedMemberAtEveryStep() async throws {
    let directory = TemporaryDirectory()
    let (url, states) = try Self.record(in: directory)
    let input =
      states.indices.map { step in
        "goto \(step)\nprint count\nprint first\nprint isEmpty\nprint items.@count\n"
      }.joined() + "quit\n"
    let result = try await run("replay", [url.lastPathComponent], input: input, in: directory.url)
    // NB: Each step's four answers follow its position line (`N/3 …`), in order.
    let lines = result.output.split(separator: "\n").map(String.init)
    for (step, state) in states.enumerated() {
      let position = try #require(
        lines.firstIndex { $0.hasPrefix("\(step)/\(states.count - 1)") }, "\(result.output)")
      let answers = Array(lines[(position + 1)...].prefix(4))
      #expect(
        answers == [
          "\(state.count)", "\"\(state.first)\"", "\(state.isEmpty)", "\(state.items.count)",
        ], "at step \(step): \(result.output)")
    }
  }

  @Test func watchStopsWhereTheNamedMemberChanges() async throws {
    let directory = TemporaryDirectory()
    let (url, _) = try Self.record(in: directory)
    let result = try await run(
      "replay", [url.lastPathComponent],
      input: "watch count\ncontinue\ncontinue\nquit\n",
      in: directory.url)
    // NB: `count` goes 0 → 2 → 7 → 8, where the JSON object of the state has 5 members.
    #expect(result.output.contains("  0 → 2\n"), "\(result.output)")
    #expect(result.output.contains("  2 → 7\n"), "\(result.output)")
    #expect(!result.output.contains("has no \"count\""), "\(result.output)")
  }

  @Test func aPathReadsMembersBeforeWordsACollectionAnswersTo() throws {
    let json: [String: Any] = ["count": 7, "items": [1, 2, 3], "first": "a"]
    #expect(try StatePath("count").value(in: json) as? Int == 7)
    #expect(try StatePath("first").value(in: json) as? String == "a")
    #expect(try StatePath("@count").value(in: json) as? Int == 3)
    #expect(try StatePath("items.@count").value(in: json) as? Int == 3)
    #expect(try StatePath("items.count").value(in: json) as? Int == 3)
    #expect(throws: StatePathError.self) { try StatePath("first.@count").value(in: json) }
    #expect(throws: StatePathError.self) { try StatePath("items.@size") }
    #expect(try StatePath("items.@count").description == "items.@count")
    let typed = MemberNames.State(count: 9, first: "b", isEmpty: false, last: 4, items: [4])
    #expect(try StatePath("count").value(in: typed) as? Int == 9)
    #expect(try StatePath("isEmpty").value(in: typed) as? Bool == false)
    #expect(try StatePath("items.@count").value(in: typed) as? Int == 1)
  }
}
