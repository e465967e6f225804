import ActionLog
import Foundation
import TestSupport
import Testing

/// `replay shrink` on the bundled recordings, through the real `replay`: each round's size, the
/// recording it writes, and what it says when it cannot shrink. The long bug report shrunk by a
/// divergence is in `ReplayTestingTests/ShrinkTests`, which checks the result with `assertReplay`.
@Suite struct ShrinkCommandTests {
  /// Runs `replay` in a folder holding copies of the bundled recordings.
  func replay(
    _ arguments: [String], in directory: TemporaryDirectory
  ) async throws
    -> ProcessResult
  {
    for name in ["counter", "todos", "songs"]
    where !FileManager.default.fileExists(atPath: directory.file("\(name).actionlog").path) {
      try FileManager.default.copyItem(
        at: bundledRecording(name), to: directory.file("\(name).actionlog"))
    }
    return try await run("replay", arguments, in: directory.url)
  }

  @Test func watchKeepsTheFewestActionsThatReachTheValue() async throws {
    let directory = TemporaryDirectory()
    let result = try await self.replay(
      ["shrink", "todos.actionlog", "--watch", "todos.count == 3"], in: directory)
    #expect(result.status == 0)
    #expect(result.errors == "")
    #expect(
      result.output == """
        Shrinking todos.actionlog (139 actions) to the fewest that still fail: todos.count == 3.
        Up to where it first fails: 18 actions, 18 sent to the store.
        Round 1: 14 actions, 14 sent to the store, 10 replayed.
        Round 2: 12 actions, 12 sent to the store, 24 replayed.
        Round 3: 10 actions, 10 sent to the store, 32 replayed.
        Round 4: 7 actions, 7 sent to the store, 39 replayed.
        Round 5: 6 actions, 6 sent to the store, 53 replayed.
        Round 6: 5 actions, 5 sent to the store, 60 replayed.
        Round 7: 4 actions, 4 sent to the store, 67 replayed.
        Round 8: 3 actions, 3 sent to the store, 80 replayed.
        Shrunk todos.actionlog from 139 actions to 3 actions (steps 1, 10, 18), in 86 replays: \
        still todos.count == 3.
        Wrote todos.shrunk.actionlog. Leaving out any one action sent to the store makes it pass.
        Step through it with: replay todos.shrunk.actionlog
        Make it a test with:  replay export-test todos.shrunk.actionlog --name NAME

        """)
    let list = try await self.replay(["list", "todos.shrunk.actionlog"], in: directory)
    #expect(
      list.output == """
        1  +0.350s  send          TodosView.swift:19  Todos.Action.addTodoButtonTapped
        2  +3.500s  send          TodosView.swift:19  Todos.Action.addTodoButtonTapped
        3  +6.300s  send          TodosView.swift:19  Todos.Action.addTodoButtonTapped

        """)
    // It replays with today's reducer, a checkpoint after every action, and says where it
    // came from.
    let verified = try await self.replay(["verify", "todos.shrunk.actionlog"], in: directory)
    #expect(
      verified.output
        == "todos.shrunk.actionlog: today's reducer reproduces all 3 checkpoints of 3 actions.\n")
    #expect(
      try actionsNoEffectCouldHaveFedBack(
        in: Recording(contentsOf: directory.file("todos.shrunk.actionlog"))) == [])
    let info = try await self.replay(["info", "--json", "todos.shrunk.actionlog"], in: directory)
    #expect(
      info.output.contains(
        #""shrunkFrom" : "actions 1, 10, 18 of 139 in todos.actionlog, recorded from "#))
    // It becomes a test like any recording.
    let test = try await self.replay(
      ["export-test", "todos.shrunk.actionlog", "--name", "three-todos"], in: directory)
    #expect(test.status == 0, "\(test.errors)")
    let source = try String(
      contentsOf: directory.file("Tests/RecordingTests/ThreeTodosReplayTests.swift"),
      encoding: .utf8)
    #expect(source.contains("three-todos.actionlog"))
  }

  /// A condition's value is read as Swift, as the REPL's are: `3.0` is the count `3`, and a
  /// value that does not read as Swift names its column.
  @Test func aConditionsValueIsReadAsSwift() async throws {
    let directory = TemporaryDirectory()
    let result = try await self.replay(
      ["shrink", "counter.actionlog", "--watch", "count == 3.0", "-o", "three.actionlog"],
      in: directory)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("still count == 3.0."), "\(result.output)")
    let malformed = try await self.replay(
      ["shrink", "counter.actionlog", "--watch", "count == (3"], in: directory)
    #expect(malformed.status == 1)
    #expect(
      malformed.errors.contains(
        #"--watch: The value after "==" does not read as Swift: column 1: expected a value"#),
      "\(malformed.errors)")
  }

  @Test func breakKeepsAnActionWithWhatItsEffectFedBack() async throws {
    let directory = TemporaryDirectory()
    let result = try await self.replay(
      ["shrink", "counter.actionlog", "--break", "factResponse", "-o", "fact.actionlog"],
      in: directory)
    #expect(result.status == 0, "\(result.errors)")
    #expect(
      result.output.contains(
        """
        Shrunk counter.actionlog from 118 actions to 2 actions (steps 3, 4), in 6 replays: still \
        an action matching "factResponse" is replayed.
        """))
    let list = try await self.replay(["list", "fact.actionlog"], in: directory)
    #expect(
      list.output == """
        1  +1.050s  send          RecordSamples.swift:173  CounterFeature.Action.factButtonTapped
        2  +1.400s  effect ← 1    CounterFeature.swift:57  CounterFeature.Action.factResponse(\
        "2 is a prime number.")

        """)
    // With a condition: a fact received when the count is 5.
    let later = try await self.replay(
      [
        "shrink", "counter.actionlog", "--break", "factResponse", "--watch", "count == 5",
        "-o", "fact-at-3.actionlog",
      ],
      in: directory)
    #expect(later.status == 0, "\(later.errors)")
    let actions = try await self.replay(["list", "fact-at-3.actionlog"], in: directory)
    let lines = actions.output.split(separator: "\n")
    #expect(lines.count == 7)
    #expect(lines.filter { $0.hasSuffix("incrementButtonTapped") }.count == 5)
    #expect(lines.last?.contains(#"factResponse("5 is a prime number.")"#) == true)
    // Each fact response stays with the request that fed it back.
    for file in ["fact.actionlog", "fact-at-3.actionlog"] {
      #expect(
        try actionsNoEffectCouldHaveFedBack(in: Recording(contentsOf: directory.file(file))) == [],
        "\(file)")
    }
  }

  @Test func whatItCannotShrinkItSays() async throws {
    let directory = TemporaryDirectory()
    func failure(_ arguments: String...) async throws -> (Int32, String) {
      let result = try await self.replay(arguments, in: directory)
      #expect(result.output.hasPrefix("Shrinking") || result.output.isEmpty)
      return (result.status, result.errors)
    }
    #expect(
      try await failure("shrink", "songs.actionlog", "--verify")
        == (
          1,
          """
          replay: --verify needs --recorded-with NAME, the behaviour the recording was made \
          with: a shorter recording has no recorded states to compare today's reducer with, so \
          each one is replayed with both. "songs" registers "heart-bug".

          """
        ))
    #expect(
      try await failure("shrink", "counter.actionlog", "--verify", "--recorded-with", "old")
        == (1, #"replay: This feature has no behaviour named "old": it registers none."# + "\n"))
    #expect(
      try await failure("shrink", "songs.actionlog", "--verify", "--recorded-with", "heart-bug")
        .1.hasPrefix(
          """
          replay: The behaviour given as the recording's does not reproduce it, so it cannot \
          stand in for it on shorter recordings:
          """))
    #expect(
      try await failure("shrink", "counter.actionlog", "--watch", "count == 1000")
        == (
          1,
          """
          replay: The recording does not fail that way, so there is nothing to shrink: replayed \
          to its end, it never meets the condition: count == 1000.

          """
        ))
    #expect(
      try await failure("shrink", "todos.actionlog", "--watch", "todos[0].titel == \"x\"")
        == (
          1,
          """
          replay: The recording does not fail that way, so there is nothing to shrink: replayed \
          to its end, it never meets the condition: todos[0].titel == "x". At the end of the \
          recording, "todos[0].titel": "todos[0]" has no "titel"; it has description, id, \
          isComplete, priority.

          """
        ))
    #expect(
      try await failure("shrink", "counter.actionlog", "--watch", "count = 3")
        == (
          1,
          """
          replay: "count = 3" is not a condition: it has neither "==" nor "!=". Write PATH == \
          VALUE or PATH != VALUE, the value as "print PATH" shows it: count == 3, \
          todos[0].isComplete == true.

          """
        ))
    let (status, errors) = try await failure("shrink", "counter.actionlog")
    #expect(status == 64)
    #expect(errors.contains("Say how the recording fails: --verify, --break ACTION or --watch."))
    // Nothing was written by any of them.
    let written = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(written.filter { $0.contains("shrunk") }.isEmpty)
  }
}
