import Foundation
import TestSupport
import Testing
import TimeTravel

@testable import ReplayREPL

/// `send` takes an action as the REPL prints it: on every bundled recording, each step's action,
/// typed back as `goto` printed it at the step before, changes the state as the step did.
@Suite struct SwiftSyntaxSendTests {
  static let root = ReplayCommandTests.root

  static let recordings = [
    "todos", "counter", "contacts", "inventory", "search", "songs", "songs-heart-bug",
    "preferences",
  ]

  /// The steps of a recording as `goto` prints them: `(step, action)`.
  func printedActions(_ file: String) async throws -> [(step: Int, action: String)] {
    let first = try await run("replay", [file], input: "goto 1\n", in: Self.root)
    let count = try #require(
      first.output.split(separator: "/").first.flatMap { _ in
        first.output.split(separator: " ").first?.split(separator: "/").last.flatMap { Int($0) }
      })
    let listing = try await run(
      "replay", [file], input: (1...count).map { "goto \($0)\n" }.joined(), in: Self.root)
    let line = /^(\d+)\/\d+  \+\S+  (?:send|effect ← \d+)(?: at \S+)?  (.+)$/
    let steps = listing.output.split(separator: "\n").compactMap { text in
      (try? line.wholeMatch(in: String(text))).map { (Int($0.1)!, String($0.2)) }
    }
    #expect(steps.count == count, "\(file): \(steps.count) of \(count) steps printed")
    return steps
  }

  @Test(arguments: Self.recordings)
  func eachActionTypedAsPrintedChangesTheStateAsItsStepDid(_ name: String) async throws {
    let file = "Recordings/\(name).actionlog"
    let steps = try await self.printedActions(file)
    // Per step: the change its action makes sent at the step before, and the recorded one.
    var input = ""
    for (step, action) in steps {
      input += "goto \(step - 1)\nmark-sent\nsend \(action)\nmark-sent-end\ndiscard\n"
      input += "goto \(step)\nmark-recorded\ndiff\nmark-recorded-end\n"
    }
    let output = try await run("replay", [file], input: input, in: Self.root).output
    let chunks = output.components(
      separatedBy: "Unknown command \"mark-sent\". Type \"help\" for the commands.\n"
    )
    .dropFirst()
    #expect(chunks.count == steps.count)
    var compared = 0
    for (chunk, step) in zip(chunks, steps) {
      let sent = chunk.between("", "Unknown command \"mark-sent-end\"")
      let recorded = chunk.between(
        "Unknown command \"mark-recorded\". Type \"help\" for the commands.\n",
        "Unknown command \"mark-recorded-end\"")
      // NB: A step after a shared value changed outside the app starts from another state.
      if chunk.contains("changed outside the app") { continue }
      var sentLines = sent.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix("On a diversion from step") && !$0.hasPrefix("It read ")
      }
      var recordedLines = recorded.split(separator: "\n").map(String.init)
      if sent.contains("stand-ins answered") {
        // NB: Nothing was recorded for a new action: its UUIDs and stack identities are
        // stand-ins.
        func standIn(_ line: String) -> String {
          line.replacing(/UUID\([0-9A-F-]+\)/, with: "UUID(…)").replacing(/#\d+:/, with: "#…:")
        }
        sentLines = sentLines.map(standIn)
        recordedLines = recordedLines.map(standIn)
      }
      #expect(
        sentLines == recordedLines,
        "\(name) step \(step.step): send \(step.action)\n\(sent)\nrecorded:\n\(recorded)")
      compared += 1
    }
    #expect(compared > 0)
  }

  @Test func actionsParseWithAndWithoutTheirTypeAndAllKindsOfValues() throws {
    let parsed = try SwiftValueParser.parse(
      #"Todos.Action.todos(.element(id: UUID(00000000-0000-0000-0000-000000000006), action: .textFieldChanged("a\"b\\c\n\u{1F600}")))"#
    )
    #expect(
      try parsed.codableJSON
        == [
          "todos": [
            "_0": [
              "element": [
                "id": "00000000-0000-0000-0000-000000000006",
                "action": ["textFieldChanged": ["_0": .string("a\"b\\c\n😀")]],
              ]
            ]
          ]
        ])
    #expect(
      try SwiftValueParser.parse(".deleteMany(ids: [UUID(A), UUID(B)])").codableJSON
        == ["deleteMany": ["ids": ["A", "B"]]])
    #expect(
      try SwiftValueParser.parse(
        ".save(Item.State(name: \"x\", count: -2, price: 1.5, note: nil, tags: []))"
      )
      .codableJSON
        == ["save": ["_0": ["name": "x", "count": -2, "price": .number(1.5), "tags": []]]])
    #expect(
      try SwiftValueParser.parse(".binding(.set(\\.query, \"p\"))").codableJSON
        == ["binding": ["_0": ["name": "query", "value": "p"]]])
    #expect(
      try SwiftValueParser.parse(".at(Date(2001-01-01T00:01:00.000Z), true)").codableJSON
        == ["at": ["_0": .number(60), "_1": true]])
  }

  @Test func aMalformedActionIsPointedAtByColumn() throws {
    func failure(_ text: String) -> SwiftValueParser.Failure? {
      do {
        _ = try SwiftValueParser.parse(text)
        return nil
      } catch {
        return error
      }
    }
    #expect(
      failure(".todos(.element(id: 1")
        == .init(
          column: 22, expected: "\",\" or \")\" after an argument", found: "the end of the line"))
    #expect(failure(".text(\"abc)")?.expected == "a closing quote")
    #expect(failure(".text(\"a\\qb\")")?.column == 10)
    #expect(failure("todos(")?.column == 7)
    #expect(
      failure(".")
        == .init(column: 2, expected: "a case name after \".\"", found: "the end of the line"))
  }
}

extension String {
  /// The text after `start` and before `end` (both from the first occurrence), or `""`.
  fileprivate func between(_ start: String, _ end: String) -> String {
    guard let from = start.isEmpty ? self.startIndex : self.range(of: start)?.upperBound,
      let to = self[from...].range(of: end)?.lowerBound
    else { return "" }
    return String(self[from..<to])
  }
}
