import Foundation
import TestSupport
import Testing

/// Recordings of older types through the real `replay`: the REPL reads them through the
/// features' migrations, `migrate` writes them at today's version, `rerecord` writes today's
/// states, and `check` tells each kind of trouble apart.
@Suite struct SchemaCommandTests {
  static let root = packageRoot

  @Test func theREPLReadsALegacyRecordingThroughItsMigrations() async throws {
    let result = try await run(
      "replay", ["Recordings/legacy/todos-v2.actionlog"],
      input: "info\ngoto 121\nstep\ndiff\nverify\n", in: Self.root)
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            todos: 139 actions over 49.000s, 3 checkpoints, complete
            Version 2; read at 4 through .renameCase("sortCompletedTodos", to: "sortCompleted"), \
            .custom("delete(ids:) split into delete(id:) and deleteMany(ids:)", of: .actions).
            121/139  +42.350s  send  Todos.Action.todos(.element(id: \
            UUID(00000000-0000-0000-0000-000000000008), action: .checkBoxToggled))
            122/139  +42.700s  effect ← 121  Todos.Action.sortCompleted
              Todos.State(
                filter: .all,
                todos: [
                  [0]: Todo.State(…),
            -     [1]: Todo.State(
            -       description: "Clean windows",
            -       id: UUID(00000000-0000-0000-0000-000000000008),
            -       isComplete: true,
            -       priority: 0
            -     ),
                  … (8 unchanged),
            +     [9]: Todo.State(
            +       description: "Clean windows",
            +       id: UUID(00000000-0000-0000-0000-000000000008),
            +       isComplete: true,
            +       priority: 0
            +     ),
                  … (2 unchanged)
                ]
              )
            Today's reducer reproduces all 3 checkpoints of 139 actions.

            """,
          errors: ""
        )
    )
  }

  @Test func migrateWritesTodaysVersionAndLeavesTheOriginal() async throws {
    let directory = TemporaryDirectory()
    let original = recordingsFolder.appendingPathComponent("legacy/todos-v1.actionlog")
    let before = try Data(contentsOf: original)
    let out = directory.file("todos.actionlog")
    let migrated = try await run(
      "replay", ["migrate", original.path, "-o", out.path], in: Self.root)
    #expect(
      migrated
        == ProcessResult(
          status: 0,
          output: """
            Migrated todos-v1.actionlog from version 1 to 4 with 3 steps:
              .addField("priority", default: 0, in: "todos[*]")
              .renameCase("sortCompletedTodos", to: "sortCompleted")
              .custom("delete(ids:) split into delete(id:) and deleteMany(ids:)", of: .actions)
            Wrote \(out.path): 139 actions, 28637 bytes.
            Read back: version 4, and today's reducer reproduces all 3 checkpoints of 139 actions.

            """,
          errors: ""
        )
    )
    #expect(try Data(contentsOf: original) == before)
    let info = try await run("replay", ["info", out.path], in: Self.root)
    #expect(
      info.output.contains(
        """
          version      4; migrated from 1 with .addField("priority", default: 0, in: \
        "todos[*]"), .renameCase("sortCompletedTodos", to: "sortCompleted"), \
        .custom("delete(ids:) split into delete(id:) and deleteMany(ids:)", of: .actions)
        """), "\(info.output)")
    let again = try await run("replay", ["migrate", out.path, "-o", out.path], in: Self.root)
    #expect(
      again.output == """
        todos.actionlog is at version 4 of "todos", today's version: there is nothing to \
        migrate, and nothing was written.

        """)
    let exists = try await run("replay", ["migrate", original.path, "-o", out.path], in: Self.root)
    #expect(exists.status == 1)
    #expect(exists.errors.hasSuffix("todos.actionlog exists: give --force to replace it.\n"))
  }

  @Test func rerecordNamesTheCheckpointsThatChangedAndKeepsTheActions() async throws {
    let directory = TemporaryDirectory()
    let reported = recordingsFolder.appendingPathComponent(
      "bug-reports/songs-heart-bug-as-reported.actionlog")
    let copy = directory.file("bug.actionlog")
    try FileManager.default.copyItem(at: reported, to: copy)
    let rerecorded = try await run("replay", ["rerecord", copy.path], in: Self.root)
    #expect(
      rerecorded
        == ProcessResult(
          status: 0,
          output: """
            Re-recorded bug.actionlog to \(copy.path): 11 actions; 3 of 11 checkpoints changed, \
            after actions 8, 9, 10. Review them (replay verify on the old file shows the first \
            difference) before committing.
            Read back: version 2, and today's reducer reproduces every step of 11 actions.

            """,
          errors: ""
        )
    )
    // Every record but the changed checkpoints, and the actions whose change of the state
    // differs (their update), is the one recorded, byte for byte.
    func lines(_ url: URL) throws -> [Substring] {
      try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    }
    let old = try lines(reported)
    let new = try lines(copy)
    #expect(old.count == new.count)
    let changed = zip(old, new).filter { $0 != $1 }.map {
      String($1.dropFirst(9)).components(separatedBy: #""update""#)[0]
        .components(separatedBy: #""value""#)[0]
    }
    #expect(
      changed == [
        #"{"kind":"action","seq":8,"source":"effect","time":2800000000,"trigger":7,"#,
        #"{"kind":"checkpoint","seq":8,"#, #"{"kind":"checkpoint","seq":9,"#,
        #"{"kind":"checkpoint","seq":10,"#,
        #"{"kind":"action","seq":11,"source":"effect","time":3850000000,"trigger":10,"#,
      ])
    let verified = try await run("replay", ["verify", copy.path], in: Self.root)
    #expect(verified.status == 0)
  }

  @Test func checkTellsEachKindOfTroubleApart() async throws {
    let directory = TemporaryDirectory()
    let manager = FileManager.default
    try manager.copyItem(at: bundledRecording("counter"), to: directory.file("a-good.actionlog"))
    // Damaged: a byte of a record changed, its checksum now wrong.
    var damaged = try Data(contentsOf: bundledRecording("counter"))
    damaged[1_000] ^= 0x01
    try damaged.write(to: directory.file("b-damaged.actionlog"))
    // Diverging: the bug report, of behaviour since fixed.
    try manager.copyItem(
      at: recordingsFolder.appendingPathComponent(
        "bug-reports/songs-heart-bug-as-reported.actionlog"),
      to: directory.file("c-diverging.actionlog"))
    // Unmigrated: recorded before a change of the types, its header not saying so.
    let legacy = try String(
      contentsOf: recordingsFolder.appendingPathComponent("legacy/todos-v1.actionlog"),
      encoding: .utf8)
    var lines = legacy.split(separator: "\n").map(String.init)
    lines[0] = String(
      decoding: framedLine(
        String(lines[0].dropFirst(9)).replacingOccurrences(
          of: #""metadata""#, with: #""schema":4,"metadata""#)
      ).dropLast(), as: UTF8.self)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(
      to: directory.file("d-unmigrated.actionlog"))
    let checked = try await run("replay", ["check", "."], in: directory.url)
    #expect(checked.status == 1)
    let verdicts = checked.output.split(separator: "\n").filter {
      $0.hasPrefix("pass") || $0.hasPrefix("FAIL")
    }.map { $0.prefix(48) }
    #expect(
      verdicts == [
        "pass  ./a-good.actionlog: today's reducer reprod",
        "FAIL  ./b-damaged.actionlog: today's reducer rep",
        "FAIL  ./c-diverging.actionlog: The replay differ",
        "FAIL  ./d-unmigrated.actionlog: needs a migratio",
      ], "\(checked.output)")
    #expect(checked.output.hasSuffix("Checked 4 recordings: 1 passes, 3 fail.\n"))
    let json = try await run("replay", ["check", ".", "--json"], in: directory.url)
    let document = try #require(
      JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let kinds = (document["recordings"] as? [[String: Any]])?.map { $0["verdict"] as? String }
    #expect(kinds == ["pass", "unreadable", "differs", "needs-migration"])
  }

  @Test func aNewerRecordingIsRefusedWithStatus2() async throws {
    let directory = TemporaryDirectory()
    let todos = try String(contentsOf: bundledRecording("todos"), encoding: .utf8)
    var lines = todos.split(separator: "\n").map(String.init)
    lines[0] = String(
      decoding: framedLine(
        String(lines[0].dropFirst(9)).replacingOccurrences(
          of: #""schema":4"#, with: #""schema":9"#)
      ).dropLast(), as: UTF8.self)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.file())
    let verified = try await run("replay", ["verify", directory.file().path], in: Self.root)
    #expect(
      verified
        == ProcessResult(
          status: 2, output: "",
          errors: """
            replay: This recording is at version 9 of the feature, and this code knows versions \
            up to 4: it was made by newer code. Open it with that code; a recording is never read \
            by guessing what a newer version meant.

            """))
  }

  @Test func effectsAndSkipShowWhatAStepStartedAndWhatItMattered() async throws {
    let counter = try await run(
      "replay", ["Recordings/counter.actionlog"],
      input: "effects 3\nskip 3\neffects 0\nskip\neffects 999\n", in: Self.root)
    #expect(
      counter
        == ProcessResult(
          status: 1,
          output: """
              3  +1.050s   send          RecordSamples.swift:173  CounterFeature.Action.factButtonTapped
              returned   run at CounterFeature.swift:57
              started    run at CounterFeature.swift:57
              fed back
                  4  +1.400s   effect ← 3    CounterFeature.swift:57  CounterFeature.Action.factResponse("2 is a prime \
            number.")
            Replayed steps 4–118 without step 3 and the 1 action its effects fed back (4), on a \
            diversion: the recording is unchanged.
            The end state is the recorded one: step 3 changed nothing that lasted.
            Step 0 is the initial state: no reducer ran to reach it.
            skip needs a step, such as "skip 12".
            There is no step 999: the recording has steps 0 (the initial state) to 118.

            """,
          errors: ""
        )
    )
    // A recording made before effect ledgers: the step's effects are not known, today's are.
    let legacy = try await run(
      "replay", ["Recordings/legacy/todos-v1.actionlog"], input: "effects 117\nskip 117\n",
      in: Self.root)
    #expect(legacy.status == 0)
    #expect(
      legacy.output == """
        117  +40.950s  send          Todos.Action.todos(.element(id: \
        UUID(00000000-0000-0000-0000-00000000000B), action: .checkBoxToggled))
          The recording has no effect ledger (it was made before recordings kept one): what this \
        step's reducer returned is not known.
          today      cancellable(CancelID.todoCompletion, cancelInFlight, run at Todos.swift:86)
          fed back
            118  +41.300s  effect ← 117  Todos.Action.sortCompleted
        Replayed steps 118–139 without step 117 and the 1 action its effects fed back (118), on \
        a diversion: the recording is unchanged.
        The end state differs from the recorded one:
          Todos.State(
            filter: .all,
            todos: [
        +     [0]: Todo.State(
        +       description: "Write thank-you notes",
        +       id: UUID(00000000-0000-0000-0000-00000000000B),
        +       isComplete: false,
        +       priority: 0
        +     ),
              [1]: Todo.State(…)
            ]
          )

        """
    )
  }

  @Test func checkListsEveryBundledRecordingWithItsVerdict() async throws {
    let checked = try await run("replay", ["check", "Recordings"], in: Self.root)
    #expect(checked.status == 1)
    let verdicts = checked.output.split(separator: "\n")
      .filter { $0.hasPrefix("pass") || $0.hasPrefix("FAIL") }
      .map { $0.split(separator: ":").first.map(String.init) ?? "" }
    // The field folder's segments are checked one by one: each opens with its own start state.
    let fieldSegments = (9...18).map {
      "pass  Recordings/field/counter-20251122T025320Z-5a3e1f07-0000\($0 < 10 ? "0" : "")\($0).actionlog"
    }
    #expect(
      verdicts == [
        "FAIL  Recordings/bug-reports/songs-heart-bug-as-reported.actionlog",
        "pass  Recordings/contacts.actionlog",
        "pass  Recordings/counter.actionlog",
      ] + fieldSegments + [
        "pass  Recordings/inventory.actionlog",
        "pass  Recordings/legacy/songs-v1.actionlog",
        "pass  Recordings/legacy/todos-v1.actionlog",
        "pass  Recordings/legacy/todos-v2.actionlog",
        "pass  Recordings/legacy/todos-v3.actionlog",
        "pass  Recordings/preferences.actionlog",
        "pass  Recordings/search.actionlog",
        "pass  Recordings/song-row-heart.actionlog",
        "pass  Recordings/songs-heart-bug.actionlog",
        "pass  Recordings/songs.actionlog",
        "pass  Recordings/todos-redacted.actionlog",
        "pass  Recordings/todos.actionlog",
      ])
    // The bug report is of behaviour since fixed: it differs, at the step the README shows.
    #expect(
      checked.output.contains(
        """
        FAIL  Recordings/bug-reports/songs-heart-bug-as-reported.actionlog: The replay differs \
        from the recording at step 8
        """))
    #expect(checked.output.hasSuffix("Checked 25 recordings: 24 pass, 1 fails.\n"))
  }
}
