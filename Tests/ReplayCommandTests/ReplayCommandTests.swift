import Foundation
import TestSupport
import Testing

/// The real `replay` binary, run as a person would, with whole outputs compared.
@Suite struct ReplayCommandTests {
  static let root = packageRoot

  private func replay(_ arguments: String...) async throws -> ProcessResult {
    try await run("replay", arguments, in: Self.root)
  }

  @Test func infoDescribesARecording() async throws {
    let result = try await self.replay("info", "Recordings/todos.actionlog")
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            Recordings/todos.actionlog
              feature      todos (ExampleFeatures.Todos.State, ExampleFeatures.Todos.Action)
              version      4
              recorded     2025-11-22T02:53:20.000Z, 139 actions over 49.000s
              checkpoints  3 (every 50 actions)
              ending       complete
              metadata     app=ExampleFeatures, session=Tools/record-samples
              size         44529 bytes
              sent from    7 source lines ("replay list" shows each action's)
              replayable   yes: this replay knows "todos"

            """,
          errors: ""
        )
    )
  }

  /// A rolling recorder's folder whose session stopped on a full disk and started again
  /// (`Tests/Fuzz/folder-corpus/gap`): `info` on the folder lists its sessions with the gap, and
  /// on the segment after it says what is missing, as the REPL's `info` does.
  @Test func infoShowsWhereARollingRecordingHasAGap() async throws {
    let folder = "Tests/Fuzz/folder-corpus/gap"
    let listing = try await self.replay("info", folder)
    #expect(listing.status == 0, "\(listing)")
    #expect(
      listing.output
        == """
        counter-g  finished  6 segments, steps 71–150 over 0.0s, the last at 2025-11-24T16:00:00Z
          gap before counter-g-000002.actionlog: actions 21–70 (50) were not recorded: No space left on device

        """)
    let segment = try await self.replay("info", "\(folder)/counter-g-000002.actionlog")
    #expect(
      segment.output.contains(
        "\n  gap          before this segment: actions 21–70 (50) were not recorded: No space left on device\n"
      ), "\(segment.output)")
    let listed = try await self.replay("report", folder, "--list")
    #expect(listed.output == listing.output)
    let empty = TemporaryDirectory()
    let refused = try await self.replay("info", empty.url.path)
    #expect(refused.status == 1)
    #expect(refused.errors.contains("is a folder with no segment of a rolling recording"))
  }

  /// Every subcommand's help reads as prose: no sentence with a run of spaces inside it, as a
  /// help text joined across a line of its source leaves (`to read in any         browser`).
  @Test func everySubcommandsHelpReadsAsProse() async throws {
    let help = try await self.replay("--help")
    let subcommands =
      help.output.components(separatedBy: "SUBCOMMANDS:").last?
      .split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("  "), let name = line.split(separator: " ").first,
          name.first?.isLetter == true
        else { return nil }
        return String(name)
      } ?? []
    #expect(subcommands.count > 10, "\(help.output)")
    for subcommand in subcommands {
      let text = try await run("replay", [subcommand, "--help"], in: Self.root).output
      let gaps = text.split(separator: "\n").filter {
        $0.range(of: #"[a-z,.;:)] {3,}[a-z(]"#, options: .regularExpression) != nil
      }
      #expect(gaps.isEmpty, "replay \(subcommand) --help: \(gaps)")
    }
  }

  @Test func replayLinksNoTestFramework() async throws {
    let replay = try #require(productURL("replay"))
    let libraries = try await run("ldd", [replay.path], in: Self.root, isProduct: false)
    #expect(libraries.status == 0)
    #expect(libraries.output.contains("libswiftCore.so"))
    #expect(testFrameworks(in: libraries.output) == [], "\(libraries.output)")
  }

  @Test func infoAsJSON() async throws {
    let result = try await self.replay("info", "Recordings/songs.actionlog", "--json")
    #expect(result.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    #expect(object?["feature"] as? String == "songs")
    #expect(object?["actions"] as? Int == 73)
    #expect(object?["ending"] as? String == "complete")
    #expect(object?["replayable"] as? Bool == true)
  }

  @Test func listShowsStepsTimesOriginsAndActions() async throws {
    let result = try await self.replay(
      "list", "Recordings/counter.actionlog", "--from", "2", "--to", "5")
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            2  +0.700s  send          RecordSamples.swift:171  CounterFeature.Action.\
            incrementButtonTapped
            3  +1.050s  send          RecordSamples.swift:173  CounterFeature.Action.\
            factButtonTapped
            4  +1.400s  effect ← 3    CounterFeature.swift:57  CounterFeature.Action.factResponse(\
            "2 is a prime number.")
            5  +1.750s  send          RecordSamples.swift:171  CounterFeature.Action.\
            incrementButtonTapped

            """,
          errors: ""
        )
    )
  }

  @Test func verifyPassesOnEveryBundledRecording() async throws {
    for (name, actions) in [("counter", 118), ("todos", 139), ("songs", 73)] {
      let result = try await self.replay("verify", "Recordings/\(name).actionlog")
      #expect(
        result
          == ProcessResult(
            status: 0,
            output: """
              \(name).actionlog: today's reducer reproduces every step of \(actions) actions.

              """,
            errors: ""
          )
      )
    }
  }

  @Test func badInputSaysWhatIsWrong() async throws {
    #expect(
      try await self.replay("info", "missing.actionlog")
        == ProcessResult(
          status: 1,
          output: "",
          errors: """
            replay: Cannot read \(Self.root.path)/missing.actionlog: no such file. Check \
            that the file exists and is readable.

            """
        )
    )
    #expect(
      try await self.replay("list", "Recordings/todos.actionlog", "--from", "500")
        == ProcessResult(
          status: 2,
          output: "",
          errors: "replay: there is no step 500: the recording has actions 1 to 139.\n"
        )
    )
  }

  @Test func tornRecordingOpensAtItsLastWholeRecord() async throws {
    let directory = TemporaryDirectory()
    let bundled = try Data(
      contentsOf: Self.root.appendingPathComponent("Recordings/counter.actionlog"))
    let torn = directory.file("torn.actionlog")
    try bundled.prefix(bundled.count / 2).write(to: torn)
    let info = try await run("replay", ["info", torn.path], in: Self.root)
    #expect(info.status == 0)
    #expect(info.output.contains("  ending       cut short: the last "))
    let verify = try await run("replay", ["verify", torn.path], in: Self.root)
    #expect(verify.status == 0)
    #expect(verify.output.hasSuffix("only its whole records were verified.\n"))
  }
}

/// `replay FILE`: the REPL, in script mode and at a terminal.
@Suite struct ReplayREPLTests {
  static let root = ReplayCommandTests.root

  @Test func scriptModeRunsCommandsFromStandardInput() async throws {
    let result = try await run(
      "replay", ["Recordings/counter.actionlog"],
      input: "goto 4\nprint count\naction 3\ndiff 3 4\nlast\n",
      in: Self.root
    )
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            4/118  +1.400s  effect ← 3 at CounterFeature.swift:57  CounterFeature.Action.\
            factResponse("2 is a prime number.")
            2
            CounterFeature.Action.factButtonTapped
              CounterFeature.State(
                count: 2,
            -   fact: nil,
            +   fact: "2 is a prime number.",
            -   isLoading: true,
            +   isLoading: false,
                alert: nil
              )
            118/118  +41.300s  effect ← 117 at CounterFeature.swift:57  CounterFeature.Action.\
            factResponse("64 is the square of 8.")

            """,
          errors: ""
        )
    )
  }

  @Test func scriptModeFailsWhenACommandFails() async throws {
    let result = try await run(
      "replay", ["Recordings/counter.actionlog"],
      input: "stpe\ngoto 999\nprint count.x\nbogus\nprint count\n",
      in: Self.root
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            Unknown command "stpe". Did you mean "step"? Type "help" for the commands.
            There is no step 999: the recording has steps 0 (the initial state) to 118.
            "count.x": "count" has no "x".
            Unknown command "bogus". Type "help" for the commands.
            0

            """,
          errors: ""
        )
    )
  }

  @Test func terminalSessionHasAPromptAndHistory() async throws {
    let home = TemporaryDirectory()
    let replay = try #require(productURL("replay"))
    let script = Self.root.appendingPathComponent("Tests/ReplayCommandTests/Support/pty_session.py")
    let result = try await run(
      "python3",
      [script.path, home.url.path, replay.path, "Recordings/counter.actionlog"],
      input: "goto 4\\r\n\\x04\n",
      in: Self.root,
      isProduct: false
    )
    #expect(
      result.output
        == """
        'counter: 118 actions. Type "help" for the commands.\\r\\n(replay 0/118 +0.000s) '
        'goto 4\\r\\n\\x1b[1m4/118\\x1b[0m  +1.400s  effect ← 3 at CounterFeature.swift:57  \
        CounterFeature.Action.factResponse("2 is a prime number.")\\r\\n(replay 4/118 +1.400s) '
        '^D'
        exit 0

        """
    )
    let history = try String(contentsOf: home.file(".replay_history"), encoding: .utf8)
    #expect(history.contains("goto\\0404"))
  }
}
