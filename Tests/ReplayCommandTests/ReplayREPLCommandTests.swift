// NB: Over 400 lines on purpose: whole transcripts of the REPL's commands, scripted and on a
// pseudo-terminal, over the same bundled recordings.

import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

@testable import ReplayREPL

/// The REPL's commands in script mode: whole transcripts of the real `replay` binary.
@Suite struct ReplayREPLCommandTests {
  static let root = ReplayCommandTests.root

  private func session(_ recording: String, _ commands: String...) async throws -> ProcessResult {
    try await run(
      "replay", [recording], input: commands.joined(separator: "\n") + "\n", in: Self.root
    )
  }

  /// A stop counts the searches that stopped at it, in both directions: the watchpoint twice
  /// forward and once back; the breakpoint, never reached, says nothing.
  @Test func infoBreakpointsSaysHowOftenEachStopWasHit() async throws {
    let result = try await self.session(
      "Recordings/todos.actionlog",
      "goto 60", "watch todos[0].isComplete", "break deleteMany", "continue", "continue",
      "reverse-continue", "info breakpoints"
    )
    let output = result.output
    let table = try #require(output.range(of: "Num  Type        What\n"))
    #expect(
      output[table.upperBound...]
        == """
        1    watchpoint  todos[0].isComplete
             hit 3 times
        2    breakpoint  deleteMany

        """, "\(output)")
  }

  @Test func watchpointsAndBreakpointsStopSearches() async throws {
    let result = try await self.session(
      "Recordings/todos.actionlog",
      "goto 60", "watch todos[0].isComplete", "break deleteMany", "info breakpoints",
      "reverse-continue", "continue", "delete 1", "continue", "continue", "delete 9", "delete",
      "continue"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            60/139  +21.000s  send at TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000006), action: .textFieldChanged("B")))
            Watchpoint 1: todos[0].isComplete (now false)
            Breakpoint 2: deleteMany
            Num  Type        What
            1    watchpoint  todos[0].isComplete
            2    breakpoint  deleteMany
            Watchpoint 1: todos[0].isComplete
              (no value) → false
            1/139  +0.350s  send at TodosView.swift:19  Todos.Action.addTodoButtonTapped
            Watchpoint 1: todos[0].isComplete
              false → true
            117/139  +40.950s  send at TodosView.swift:58  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-00000000000B), action: .checkBoxToggled))
            Deleted 1.
            Breakpoint 2: deleteMany
            138/139  +48.300s  send at TodosView.swift:29  Todos.Action.deleteMany(ids: [[0]: \
            UUID(00000000-0000-0000-0000-000000000007), [1]: \
            UUID(00000000-0000-0000-0000-000000000004)])
            No later step changes a watched value or matches a breakpoint: still at step 138.
            There is no watchpoint or breakpoint "9" (the numbers are 2: see "info breakpoints").
            Deleted the watchpoint or breakpoint.
            Nothing to stop at: add a watchpoint ("watch PATH") or a breakpoint ("break ACTION").

            """,
          errors: ""
        )
    )
  }

  @Test func conditionsCompareValuesWrittenAsTheREPLPrintsThem() async throws {
    let result = try await self.session(
      "Recordings/todos.actionlog",
      "print filter == .all", "print filter == .active", "watch todos[0].isComplete == true",
      "continue",
      #"print todos[0] == Todo.State(description: "Write thank-you notes", id: UUID(00000000-0000-0000-0000-00000000000b), isComplete: true, priority: 0)"#,
      "print todos[0].priority == 0.0", "print todos[0].isComplete != true",
      "print todos[0].isComplete == ture", "watch filter == .completed)",
      "watch filter != .all", "info breakpoints", "continue", "reverse-continue"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            true
            false: filter is Todos.Filter.all
            Watchpoint 1: todos[0].isComplete == true (does not hold now: todos[0].isComplete is \
            absent at this step)
            Watchpoint 1: todos[0].isComplete == true
              false → true
            117/139  +40.950s  send at TodosView.swift:58  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-00000000000B), action: .checkBoxToggled))
            true
            true
            false: todos[0].isComplete is true
            "ture" is not a value: write a case with its dot (.ture), a string in quotes \
            ("ture"), a number, true, false or nil.
            The value after "==" does not read as Swift: column 11: expected the end of the \
            value, found ")"
              .completed)
                        ^
            Watchpoint 2: filter != .all (does not hold now: filter is Todos.Filter.all)
            Num  Type        What
            1    watchpoint  todos[0].isComplete == true
                 hit 1 time
            2    watchpoint  filter != .all
            Watchpoint 2: filter != .all
              Todos.Filter.all → Todos.Filter.completed
            133/139  +46.550s  send at TodosView.swift:24  Todos.Action.filterPicked(.completed)
            Watchpoint 1: todos[0].isComplete == true
              false → true
            117/139  +40.950s  send at TodosView.swift:58  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-00000000000B), action: .checkBoxToggled))

            """,
          errors: ""
        )
    )
  }

  @Test func aRedactedRecordingStepsDiffsAndVerifies() async throws {
    let result = try await self.session(
      "Recordings/todos-redacted.actionlog",
      "info", "goto 10", "print todos[0]", "diff 8 9", "step", "verify"
    )
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            todos: 139 actions over 49.000s, 3 checkpoints, complete
            Redacted at record time: state todos[*].description; actions **.textFieldChanged \
            (shown as ‹redacted N›).
            Version 4.
            10/139  +3.500s  send at TodosView.swift:19  Todos.Action.addTodoButtonTapped
            Todo.State(
              description: "",
              id: UUID(00000000-0000-0000-0000-000000000001),
              isComplete: false,
              priority: 0
            )
              Todos.State(
                filter: .all,
                todos: [
                  [0]: Todo.State(
            -       description: "‹redacted 7›",
            +       description: "‹redacted 8›",
                    id: UUID(00000000-0000-0000-0000-000000000000),
                    isComplete: false,
                    priority: 0
                  )
                ]
              )
            11/139  +3.850s  send at TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000001), action: .textFieldChanged("‹redacted 9›")))
            Today's reducer reproduces every step of 139 actions.

            """,
          errors: ""
        )
    )
    // The same session without redaction shows the texts the redacted one leaves out.
    let plain = try String(
      contentsOf: Self.root.appendingPathComponent("Recordings/todos.actionlog"), encoding: .utf8)
    let redacted = try String(
      contentsOf: Self.root.appendingPathComponent("Recordings/todos-redacted.actionlog"),
      encoding: .utf8)
    for text in ["Buy milk", "Walk the dog", "Write thank-you notes"] {
      #expect(plain.contains(text))
      #expect(!redacted.contains(text))
    }
  }

  @Test func listWhenFindAndGotoByTime() async throws {
    let result = try await self.session(
      "Recordings/todos.actionlog",
      "goto +10s", "when", "list 27 29", "list", "find Walk the dog", "find nothing-like-this",
      "goto 12.5"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            28/139  +9.800s  send at TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Wa")))
            Step 28 of 139, +9.800s into a recording of 49.000s (todos, started \
            2025-11-22T02:53:20.000Z).
              27  +9.450s   send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("W")))
            → 28  +9.800s   send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Wa")))
              29  +10.150s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Wat")))
              24  +8.400s   send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000002), action: .textFieldChanged("Call M")))
              25  +8.750s   send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000002), action: .textFieldChanged("Call Mum")))
              26  +9.100s   send          TodosView.swift:19  Todos.Action.addTodoButtonTapped
              27  +9.450s   send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("W")))
            → 28  +9.800s   send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Wa")))
              29  +10.150s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Wat")))
              30  +10.500s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Wate")))
              31  +10.850s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Water")))
              32  +11.200s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Water ")))
              33  +11.550s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000003), action: .textFieldChanged("Water t")))
            17  +5.950s  send          TodosView.swift:52  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000001), action: .textFieldChanged("Walk the dog")))
            1 action found.
            No action has "nothing-like-this".
            "12.5" is neither a step nor a time: write "goto 12" or "goto +1.5s".

            """,
          errors: ""
        )
    )
  }

  @Test func sendDivertsAndDiscardReturns() async throws {
    let result = try await self.session(
      "Recordings/counter.actionlog",
      "goto 3", #"send {"incrementButtonTapped":{}}"#, #"send {"incrementButtonTapped":{}}"#,
      "print count", "diff", "goto 5", "discard", "print count", "discard", #"send {"jump":{}}"#,
      "send {oops", "send"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            3/118  +1.050s  send at RecordSamples.swift:173  CounterFeature.Action.factButtonTapped
              CounterFeature.State(
            -   count: 2,
            +   count: 3,
                fact: nil,
                isLoading: true,
                alert: nil
              )
            On a diversion from step 3: the recording is unchanged. "discard" returns to it.
              CounterFeature.State(
            -   count: 3,
            +   count: 4,
                fact: nil,
                isLoading: true,
                alert: nil
              )
            4
              CounterFeature.State(
            -   count: 2,
            +   count: 4,
                fact: nil,
                isLoading: true,
                alert: nil
              )
            You are on a diversion from step 3 (2 actions sent): "discard" returns to the recording.
            Discarded 2 actions: back on the recording at step 3.
            2
            Not on a diversion: nothing to discard.
            This JSON does not decode as ExampleFeatures.CounterFeature.Action: an action is an \
            object with one key, the name of a case this type has. The recording's actions look \
            like: {"alertDismissed":{}}, {"decrementButtonTapped":{}}, {"factButtonTapped":{}}, \
            {"factFailed":{"_0":"the server is asleep"}}, {"factResponse":{"_0":"2 is a prime \
            number."}}, {"incrementButtonTapped":{}}
            This JSON does not decode as ExampleFeatures.CounterFeature.Action: The given data \
            was not valid JSON. The recording's actions look like: {"alertDismissed":{}}, \
            {"decrementButtonTapped":{}}, {"factButtonTapped":{}}, {"factFailed":{"_0":"the \
            server is asleep"}}, {"factResponse":{"_0":"2 is a prime number."}}, \
            {"incrementButtonTapped":{}}
            send needs an action, written as the REPL prints it (send .incrementButtonTapped, \
            send .todos(.element(id: UUID(…), action: .checkBoxToggled))) or as the recording's \
            JSON (see "action"): send {"incrementButtonTapped":{}}

            """,
          errors: ""
        )
    )
  }

  @Test func verifyAndHelp() async throws {
    let result = try await self.session(
      "Recordings/songs.actionlog", "verify", "help verify", "help bogus"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            Today's reducer reproduces every step of 73 actions.
            verify
              Re-run the recording with today's reducer and report the first step that differs.
            There is no command "bogus". Type "help" for the commands.

            """,
          errors: ""
        )
    )
  }
}

/// A feature this `replay` does not have: its recordings open read-only.
struct Thermostat: Reducer {
  struct State: Codable, Equatable {
    var target = 20
  }

  enum Action: Codable {
    case warmer
    case cooler
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .warmer: state.target += 1
    case .cooler: state.target -= 1
    }
    return .none
  }

  /// Records five taps into `url` under the feature name `feature`, a checkpoint every two.
  @MainActor
  static func record(to url: URL, feature: String) throws {
    let readings = LockIsolated(0)
    let recorder = try RecorderOf<Thermostat>(
      url: url, feature: feature, initialState: State(), checkpointInterval: 2,
      startedAt: Date(timeIntervalSince1970: 1_763_780_000),
      elapsed: {
        readings.withValue {
          $0 += 1; return .milliseconds(250 * $0)
        }
      }
    )
    let store = Store(initialState: State()) { Thermostat().recording(to: recorder) }
    // NB: Sent as from a panel's source line, which the recording names.
    for action in [Action.warmer, .warmer, .cooler, .warmer, .warmer] {
      store.send(action, fileID: "Thermostat/Panel.swift", line: 12)
    }
    try recorder.close()
  }
}

/// Recordings `replay` cannot re-run, or only in part.
@Suite struct ReplayREPLBadInputTests {
  static let root = ReplayCommandTests.root

  @MainActor
  @Test func aRecordingOfAnotherFeatureOpensReadOnly() async throws {
    let directory = TemporaryDirectory()
    let file = directory.file("thermostat.actionlog")
    try Thermostat.record(to: file, feature: "thermostat")
    let result = try await run(
      "replay", [file.path],
      input:
        "info\nprint\ngoto 3\nprint target\naction\ndiff 0 2\ndiff 1 2\nfind cooler\nverify\n"
        + "watch target\ncontinue\nreverse-continue\nreverse-continue\nsend {\"warmer\":{}}\n",
      in: Self.root
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: #"""
            thermostat: 5 actions over 1.500s, 3 checkpoints, complete
            Read-only: this replay does not have the feature "thermostat" linked in.
            {
              "target": 20
            }
            3/5  +0.750s  send at Panel.swift:12  {"cooler":{}}
            21
            {"cooler":{}}
              """
              {
            -   "target": 20
            +   "target": 22
              }
              """
              """
              {
            -   "target": 21
            +   "target": 22
              }
              """
            3  +0.750s  send          Panel.swift:12  {"cooler":{}}
            1 action found.
            verify re-runs the reducer, but this replay does not have the feature "thermostat" \#
            linked in.
            Watchpoint 1: target (now 21)
            Watchpoint 1: target
              21 → 22
            4/5  +1.000s  send at Panel.swift:12  {"warmer":{}}
            Watchpoint 1: target
              22 → 21
            3/5  +0.750s  send at Panel.swift:12  {"cooler":{}}
            Watchpoint 1: target
              21 → 22
            2/5  +0.500s  send at Panel.swift:12  {"warmer":{}}
            send re-runs the reducer, but this replay does not have the feature "thermostat" \#
            linked in.

            """#,
          errors: """
            note: read-only: this replay does not have the feature "thermostat" linked in. It \
            shows every step's state as recorded and actions as JSON; what re-runs the reducer \
            (verify, skip, send) needs a replay built with ReplayFeature("thermostat") { \
            YourReducer() } (see "replay --help").

            """
        )
    )
  }

  @MainActor
  @Test func aRecordingWithOtherTypesUnderAKnownNameOpensReadOnly() async throws {
    let directory = TemporaryDirectory()
    let file = directory.file("counter.actionlog")
    try Thermostat.record(to: file, feature: "counter")
    let result = try await run("replay", [file.path], input: "print\n", in: Self.root)
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            {
              "target": 20
            }

            """,
          errors: """
            note: read-only: its types (ReplayCommandTests.Thermostat.State, \
            ReplayCommandTests.Thermostat.Action) are not those of the feature "counter" linked \
            in (ExampleFeatures.CounterFeature.State, ExampleFeatures.CounterFeature.Action): it \
            was recorded with another version of the feature, or another feature of that name. It \
            shows every step's state as recorded and actions as JSON; what re-runs the reducer \
            (verify, skip, send) needs a replay built with ReplayFeature("counter") { \
            YourReducer() } (see "replay --help").

            """
        )
    )
  }

  @Test func aTornRecordingOpensAtItsLastWholeRecordWithAWarning() async throws {
    let directory = TemporaryDirectory()
    let bundled = try Data(
      contentsOf: Self.root.appendingPathComponent("Recordings/counter.actionlog"))
    let torn = directory.file("torn.actionlog")
    let half = bundled.prefix(bundled.count / 2)
    try half.write(to: torn)
    // The incomplete record: from the last newline on.
    let tornFrom = try #require(half.lastIndex(of: UInt8(ascii: "\n"))) + 1
    let result = try await run(
      "replay", [torn.path], input: "last\nprint count\nstep\n", in: Self.root)
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            58/58  +20.300s  send at RecordSamples.swift:171  CounterFeature.Action.\
            incrementButtonTapped
            32
            step 1 goes past the last step: you are at step 58 of 58 ("last" goes there).

            """,
          errors: """
            warning: the recording is cut short: the last \(half.count - tornFrom) bytes, from byte \
            offset \(tornFrom), are an \
            incomplete record; it opens at its last whole record, step 58.

            """
        )
    )
  }
}

/// The REPL at a terminal, driven through a pseudo-terminal.
@Suite struct ReplayREPLTerminalTests {
  static let root = ReplayCommandTests.root

  /// Runs `replay` on a pseudo-terminal, typing `keys` (one burst per element), and returns
  /// what the screen received after each burst.
  private func terminal(
    _ arguments: [String], keys: [String], home: TemporaryDirectory, noColor: Bool = false
  ) async throws -> String {
    let replay = try #require(productURL("replay"))
    let script = Self.root.appendingPathComponent("Tests/ReplayCommandTests/Support/pty_session.py")
    let result = try await run(
      "python3",
      [script.path] + (noColor ? ["--no-color"] : []) + [home.url.path, replay.path] + arguments,
      input: keys.joined(separator: "\n") + "\n",
      in: Self.root,
      isProduct: false
    )
    return result.output
  }

  @Test func tabCompletesCommandsPathsAndActionNames() async throws {
    let output = try await self.terminal(
      ["Recordings/todos.actionlog"],
      keys: ["pri\\t", "to\\t", "\\x15break check\\t", "\\r", "s\\t", "\\x15\\x04"],
      home: TemporaryDirectory(), noColor: true
    )
    #expect(
      output
        == #"""
        'todos: 139 actions. Type "help" for the commands.\r\n(replay 0/139 +0.000s) '
        'pri\r\x1b[27Gnt '
        'to\r\x1b[32Gdos'
        '\r\x1b[24G\x1b[Kbreak check\r\x1b[35GBoxToggled '
        '\r\nBreakpoint 1: checkBoxToggled\r\n(replay 0/139 +0.000s) '
        's\r\nscope  send   skip   step\r\n\r\x1b[K(replay 0/139 +0.000s) s'
        '\r\x1b[24G\x1b[K^D'
        exit 0

        """#
    )
  }

  @Test func sendTakesAnActionAsPrintedWithTabCompletionAndColumnsInItsErrors() async throws {
    let output = try await self.terminal(
      ["Recordings/todos.actionlog"],
      keys: [
        "goto 60\\r", "send .todos(.elem\\t", "(i\\t",
        "UUID(00000000-0000-0000-0000-000000000006), ac\\t",
        #".textFieldChanged(\"BX\")))\r"#,
        "send .todos(.element(id: 1\\r", #"send .filterPicked(\"Active\r"#, "send todos(]\\r",
        "\\x04",
      ],
      home: TemporaryDirectory(), noColor: true
    )
    // TAB completes the case name, then each label (typed here only as `i` and `ac`); the
    // action, sent, changes what the step changed.
    #expect(output.contains(#"'send .todos(.elem\r\x1b[43Gent'"#), "\(output)")
    #expect(output.contains(#"-       description: "B",\r\n+       description: "BX","#))
    // Three malformed actions: each names the column and what was expected there.
    #expect(
      output.contains(
        #"send: column 22: expected "," or ")" after an argument, found the end of the line"#))
    #expect(
      output.contains(#"send: column 22: expected a closing quote, found the end of the line"#))
    #expect(
      output.contains(
        #"send: column 7: expected a value (a case such as .name, a string, a number, true, false, nil, [, \\.field or a type), found "]""#
      ))
  }

  @Test func ctrlCAbandonsALineAndInterruptsASearch() async throws {
    let directory = TemporaryDirectory()
    let long = directory.file("long.actionlog")
    let recorded = try await run(
      "record-samples", ["--long", "30000", long.path], in: Self.root
    )
    #expect(recorded.status == 0)
    let output = try await self.terminal(
      [long.path],
      // `&`: the search keeps running; `?`: once it says it is searching, Ctrl-C interrupts it.
      keys: [
        "goto 2\\x03", "watch alert\\r", "&continue\\r", "?Searching", "\\x03", "when\\r",
        "\\x04",
      ],
      home: directory, noColor: true
    )
    #expect(
      output
        == #"""
        'counter: 30000 actions. Type "help" for the commands.\r\n(replay 0/30000 +0.000s) '
        'goto 2\r\x1b[32G^C\r\n(replay 0/30000 +0.000s) '
        'watch alert\r\nWatchpoint 1: alert (now nil)\r\n(replay 0/30000 +0.000s) '
        'continue\r\n\rSearching… (Ctrl-C stops the search)'
        '^C\r\x1b[K\r\nInterrupted: still at step 0.\r\n(replay 0/30000 +0.000s) '
        'when\r\nStep 0 of 30000, +0.000s into a recording of 300.010s (counter, started \#
        2025-11-22T02:53:20.000Z).\r\n(replay 0/30000 +0.000s) '
        '^D'
        exit 0

        """#
    )
  }

  @Test func coloursOnlyWithoutNoColorAndHistoryAcrossSessions() async throws {
    let home = TemporaryDirectory()
    let coloured = try await self.terminal(
      ["Recordings/counter.actionlog"], keys: ["diff 0 1\\r", "\\x04"], home: home
    )
    let plain = try await self.terminal(
      ["Recordings/counter.actionlog"], keys: ["\\x1b[A", "\\r", "\\x04"], home: home, noColor: true
    )
    // Colours on a terminal: removed lines red, added lines green.
    #expect(
      coloured
        == #"""
        'counter: 118 actions. Type "help" for the commands.\r\n(replay 0/118 +0.000s) '
        'diff 0 1\r\n  CounterFeature.State(\r\n\x1b[31m-   count: 0,\x1b[0m\r\n\x1b[32m+   \#
        count: 1,\x1b[0m\r\n    fact: nil,\r\n    isLoading: false,\r\n    alert: nil\r\n  \#
        )\r\n(replay 0/118 +0.000s) '
        '^D'
        exit 0

        """#
    )
    // With NO_COLOR, none; and the up arrow recalls the command of the session before.
    #expect(
      plain
        == #"""
        'counter: 118 actions. Type "help" for the commands.\r\n(replay 0/118 +0.000s) '
        '\r\x1b[24Gdiff 0 1'
        '\r\n  CounterFeature.State(\r\n-   count: 0,\r\n+   count: 1,\r\n    fact: nil,\r\n    \#
        isLoading: false,\r\n    alert: nil\r\n  )\r\n(replay 0/118 +0.000s) '
        '^D'
        exit 0

        """#
    )
  }
}

/// What TAB offers, word by word.
@Suite struct CompleterTests {
  struct Item { var title: String; var isDone: Bool }
  struct State { var items: [Item]; var isEditing: Bool; var settings: [String: Int] }

  let completer = Completer(
    commands: Interpreter.commands,
    caseNames: { ["checkBoxToggled", "textFieldChanged", "element"] },
    state: {
      State(items: [Item(title: "Milk", isDone: false)], isEditing: true, settings: ["volume": 3])
    }
  )

  @Test func commandsByTheirFullNamesThenAliases() {
    #expect(self.completer.complete("").candidates == Interpreter.commands.map(\.names[0]).sorted())
    #expect(self.completer.complete("s").candidates == ["scope", "send", "skip", "step"])
    #expect(self.completer.complete("s").insertion == "")
    #expect(self.completer.complete("wa").insertion == "tch ")
    #expect(self.completer.complete("rs").candidates == ["rs"])
    #expect(self.completer.complete("rs").insertion == " ")
    #expect(self.completer.complete("zz").candidates == [])
  }

  @Test func statePathsAfterPrintAndWatch() {
    #expect(
      self.completer.complete("print ").candidates == ["items", "isEditing", "settings"].sorted())
    #expect(self.completer.complete("print i").insertion == "")
    #expect(self.completer.complete("print ite").insertion == "ms")
    #expect(
      self.completer.complete("watch items[0].").candidates == [
        "items[0].isDone", "items[0].title",
      ]
    )
    #expect(self.completer.complete("p items[0].t").insertion == "itle")
    #expect(self.completer.complete("p settings.v").insertion == "olume")
    #expect(self.completer.complete("p items[3].").candidates == [])
    #expect(self.completer.complete("p items[").candidates == [])
  }

  @Test func labelsInsideACasesParenthesesInSend() {
    var completer = self.completer
    completer.caseLabels = { ["element": ["id", "action"], "deleteMany": ["ids"]] }
    #expect(completer.complete("send .todos(.element(").candidates == ["action:", "id:"])
    #expect(completer.complete("send .todos(.element(i").insertion == "d: ")
    #expect(
      completer.complete("send .todos(.element(id: UUID(00000000-0000-0000-0000-000000000006), ac")
        .insertion == "tion: ")
    #expect(completer.complete("send .deleteMany(").insertion == "ids: ")
    // A parenthesis inside a string is text; a label is not completed inside a string, after
    // its colon, or in a case that has none.
    #expect(completer.complete(#"send .todos(.element(id: "a(b", ac"#).insertion == "tion: ")
    #expect(completer.complete(#"send .todos(.element(id: "a, i"#).candidates == [])
    #expect(completer.complete("send .todos(.element(id: ").candidates == [])
    #expect(completer.complete("send .filterPicked(").candidates == [])
    // Case names after a dot, as before.
    #expect(completer.complete("send .todos(.elem").insertion == "ent")
  }

  @Test func actionNamesAfterBreakAndFind() {
    #expect(self.completer.complete("break check").insertion == "BoxToggled ")
    #expect(self.completer.complete("find e").candidates == ["element"])
    #expect(self.completer.complete("help ver").insertion == "ify ")
    #expect(self.completer.complete("info b").insertion == "reakpoints ")
    #expect(self.completer.complete("step 1").candidates == [])
  }
}

/// Every command is documented where people look: the README's table and the DocC reference.
@Suite struct CommandDocumentationTests {
  @Test(arguments: ["README.md", "Sources/ReplayREPL/Documentation.docc/ReplayCommands.md"])
  func everyCommandIsDocumented(in file: String) throws {
    let text = try String(
      contentsOf: ReplayCommandTests.root.appendingPathComponent(file), encoding: .utf8
    )
    for command in Interpreter.commands {
      let usage = command.usage.replacingOccurrences(
        of: "|", with: file.hasSuffix("README.md") ? "\\|" : "|")
      #expect(text.contains("`\(usage)`"), "\(file) does not document \"\(command.usage)\"")
      for alias in command.names.dropFirst() {
        #expect(text.contains("`\(alias)`"), "\(file) does not mention the alias \"\(alias)\"")
      }
    }
  }
}
