import Foundation
import TestSupport
import Testing

/// `replay check`: a verdict per recording, each replayed in a child process, and an exit status
/// that says whether one failed, driven through the real `replay`.
@Suite struct CheckCommandTests {
  static let root = packageRoot

  /// A folder with two bundled recordings, one whose replay traps and a file that is no
  /// recording.
  func corpus() throws -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    let sub = directory.url.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    for name in ["counter", "todos"] {
      try FileManager.default.copyItem(
        at: bundledRecording(name), to: directory.file("\(name).actionlog"))
    }
    try HostileRecordingTests.overflowingCounter()
      .write(to: sub.appendingPathComponent("overflow.actionlog"))
    try Data("hello\n".utf8).write(to: sub.appendingPathComponent("garbage.actionlog"))
    return directory
  }

  @Test func aTrappingRecordingIsAVerdictAndTheCheckGoesOn() async throws {
    let directory = try self.corpus()
    let checked = try await run("replay", ["check", "."], in: directory.url)
    #expect(
      checked
        == ProcessResult(
          status: 1,
          output: """
            pass  ./counter.actionlog: today's reducer reproduces every step of 118 \
            actions.
            FAIL  ./sub/garbage.actionlog: ./sub/garbage.actionlog does not start with a valid \
            header record (it does not start with an 8-digit checksum and a space). It may not be \
            an action log, or its first line is damaged; nothing can be replayed without the \
            header.
            FAIL  ./sub/overflow.actionlog: the reducer crashed at step 1 of 118 (a trap: an \
            arithmetic overflow, a failed precondition or a fatalError).

                    Action at step 1 (+0.350s):
                      CounterFeature.Action.incrementButtonTapped

                  The recording holds a value the reducer cannot handle there: fix the reducer \
            if the value is one it may meet, or leave the recording out if it was made to break \
            it.
            pass  ./todos.actionlog: today's reducer reproduces every step of 139 actions.
            Checked 4 recordings: 2 pass, 2 fail.

            """,
          errors: ""
        )
    )
    let passing = try await run(
      "replay", ["check", "counter.actionlog", "todos.actionlog"], in: directory.url)
    #expect(passing.status == 0)
    #expect(passing.output.hasSuffix("Checked 2 recordings: 2 pass, 0 fail.\n"))
  }

  @Test func verdictsAsJSON() async throws {
    let directory = try self.corpus()
    let checked = try await run("replay", ["check", "sub", "--json"], in: directory.url)
    #expect(checked.status == 1)
    let document = try #require(
      JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any])
    let recordings = try #require(document["recordings"] as? [[String: Any]])
    #expect(
      recordings.map { $0["file"] as? String }
        == ["sub/garbage.actionlog", "sub/overflow.actionlog"])
    #expect(recordings.map { $0["verdict"] as? String } == ["unreadable", "crashed"])
    #expect(recordings[1]["step"] as? Int == 1)
    #expect(document["passed"] as? Int == 0)
    #expect(document["failed"] as? Int == 2)
    #expect(document["interrupted"] as? Bool == false)
  }

  @Test func nothingToCheckIsNotAPass() async throws {
    let empty = TemporaryDirectory()
    let checked = try await run("replay", ["check", "."], in: empty.url)
    #expect(
      checked
        == ProcessResult(
          status: 2, output: "",
          errors: """
            replay: no recordings (.actionlog files) in .: there is nothing to check.

            """
        )
    )
  }

  /// A counter recording of 50,000 actions: the fewest for which a replay shows its progress on a
  /// terminal, and far more than the time limits and interrupts below leave it, on any machine.
  func longRecording(in directory: TemporaryDirectory) async throws -> URL {
    let long = directory.file("long.actionlog")
    let recorded = try await run(
      "record-samples", ["--long", "50000", long.path], in: Self.root)
    #expect(recorded.status == 0)
    return long
  }

  @Test func aRecordingPastTheTimeLimitIsAVerdictAndTheCheckGoesOn() async throws {
    let directory = TemporaryDirectory()
    let long = try await self.longRecording(in: directory)
    try FileManager.default.copyItem(at: long, to: directory.file("long-too.actionlog"))
    // NB: The limit is what this test is about, not a judgement of speed: 10 ms, in which no
    // machine starts a process and replays 50,000 steps. After the first verdict, the check
    // goes on to the second recording.
    let checked = try await run(
      "replay", ["check", ".", "--timeout", "0.01"], in: directory.url)
    #expect(checked.status == 1)
    let lines = checked.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(checked.output)")
    for (line, name) in zip(lines, ["long-too", "long"]) {
      #expect(
        line.hasPrefix(
          "FAIL  ./\(name).actionlog: timed out: no verdict within 0.01s; it was replaying step "),
        "\(checked.output)"
      )
    }
    #expect(lines.last == "Checked 2 recordings: 0 pass, 2 fail.")
  }

  @Test func ctrlCStopsACheckWithTheVerdictsSoFar() async throws {
    let directory = TemporaryDirectory()
    _ = try await self.longRecording(in: directory)
    try FileManager.default.copyItem(
      at: bundledRecording("counter"), to: directory.file("a-short.actionlog"))
    // Ctrl-C as soon as the first verdict is out: the long recording's check has just begun.
    let checked = try await runInterrupted(
      "replay", ["check", "."], afterLines: 1, in: directory.url)
    #expect(
      checked
        == ProcessResult(
          status: 130,
          output: """
            pass  ./a-short.actionlog: today's reducer reproduces every step of 118 \
            actions.
            Interrupted after 1 of 2 recordings: 1 passes, 0 fail.

            """,
          errors: ""
        )
    )
  }

  @Test func ctrlCStopsAVerifySayingHowFarItGot() async throws {
    let directory = TemporaryDirectory()
    let long = try await self.longRecording(in: directory)
    // At a terminal, Ctrl-C once the replay shows its progress: it is under way, not done.
    let screen = try await self.terminal(
      ["verify", long.path], keys: ["?Replaying step", "\\x03"])
    let lines = screen.split(separator: "\n").map(String.init)
    #expect(lines.last == "exit 130", "\(screen)")
    let verdict = try #require(lines.dropLast().last, "\(screen)")
    #expect(
      verdict.contains("long.actionlog: interrupted at step "), "\(screen)")
    // NB: The driver prints each burst as Python writes a string, here in double quotes.
    #expect(
      verdict.hasSuffix(
        #" of 50000; today's reducer reproduces the recording up to there.\r\n""#),
      "\(screen)")
  }

  /// Runs `replay` with `arguments` on a pseudo-terminal, typing `keys` (the driver's lines), and
  /// returns what the screen received.
  func terminal(_ arguments: [String], keys: [String] = []) async throws -> String {
    let replay = try #require(productURL("replay"))
    let script = Self.root.appendingPathComponent(
      "Tests/ReplayCommandTests/Support/pty_session.py")
    let home = TemporaryDirectory()
    let screen = try await run(
      "python3", [script.path, "--no-color", home.url.path, replay.path] + arguments,
      input: keys.map { $0 + "\n" }.joined(), in: Self.root, isProduct: false)
    return screen.output
  }

  @Test func aLongReplayShowsItsProgressOnATerminalAndClearsIt() async throws {
    let directory = TemporaryDirectory()
    let long = try await self.longRecording(in: directory)
    let output = try await self.terminal(["verify", "--checkpoints-only", long.path])
    // A hundred steps of progress, each over the last, then the line cleared for the verdict.
    // NB: The driver prints each burst as Python writes a string, in single or double quotes.
    #expect(
      output.dropFirst().hasPrefix(#"\rReplaying step 500 of 50000…\rReplaying step 1000 of"#))
    #expect(
      output.hasSuffix(
        #"""
        \rReplaying step 50000 of 50000…\r\x1b[Klong.actionlog: today's reducer reproduces all \#
        500 checkpoints of 50000 actions.\r\n"
        exit 0

        """#), "\(output.suffix(300))")
  }
}
