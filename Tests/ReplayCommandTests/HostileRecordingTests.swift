import Foundation
import TestSupport
import Testing

/// Recordings whose checksums are right but whose records claim what no recorder writes: each is
/// answered with what is wrong and where, by the real `replay`, never with a trap or a hang.
@Suite struct HostileRecordingTests {
  /// A bundled recording's records (the counter's by default) as JSON objects, one per line.
  static func records(_ name: String = "counter") throws -> [[String: Any]] {
    let data = try Data(contentsOf: bundledRecording(name))
    return try data.split(separator: UInt8(ascii: "\n")).map { line in
      try #require(
        JSONSerialization.jsonObject(with: Data(line.dropFirst(9))) as? [String: Any]
      )
    }
  }

  /// `records` framed as a recorder frames them, checksums and all.
  static func framed(_ records: [[String: Any]]) throws -> Data {
    var bytes = Data()
    for record in records {
      let payload = try JSONSerialization.data(
        withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes]
      )
      bytes += framedLine(String(decoding: payload, as: UTF8.self))
    }
    return bytes
  }

  /// The counter recording with a count the first increment overflows: its replay traps.
  static func overflowingCounter() throws -> Data {
    var records = try Self.records()
    var state = try #require(records[0]["initialState"] as? [String: Any])
    state["count"] = Int.max
    records[0]["initialState"] = state
    return try Self.framed(records)
  }

  /// Writes `records` framed, as a recorder would, and runs `replay` with `arguments` on them.
  private func replay(
    _ arguments: [String], on records: [[String: Any]]
  ) async throws -> (result: ProcessResult, offsets: [Int], path: String) {
    let bytes = try Self.framed(records)
    let directory = TemporaryDirectory()
    let file = directory.file("hostile.actionlog")
    try bytes.write(to: file)
    let result = try await run("replay", arguments + [file.lastPathComponent], in: directory.url)
    return (result, lineOffsets(bytes), file.path)
  }

  /// The index of the `n`th record (from 1) of `kind`.
  private func index(of kind: String, _ n: Int, in records: [[String: Any]]) throws -> Int {
    try #require(
      records.indices.filter { records[$0]["kind"] as? String == kind }.dropFirst(n - 1).first
    )
  }

  @Test func aNegativeTriggerIsNamed() async throws {
    var records = try Self.records()
    let fifth = try self.index(of: "action", 5, in: records)
    let sixth = try self.index(of: "action", 6, in: records)
    records[fifth]["trigger"] = -5
    let (checked, offsets, _) = try await self.replay(["verify", "--integrity"], on: records)
    #expect(
      checked
        == ProcessResult(
          status: 1,
          output: """
            hostile.actionlog is damaged:
              • record \(fifth + 1) (byte offset \(offsets[fifth])) is not a record: its trigger \
            is -5, not an \
            earlier action: an action an effect fed back names the action whose effect it was, \
            from 1 to 4
              • record \(sixth + 1) (byte offset \(offsets[sixth])) comes after a gap: action 5 \
            is missing \
            before it
            Its whole records still open (replay hostile.actionlog --skip-damaged); ask for the \
            recording again if it matters.

            """,
          errors: ""
        )
    )
    // Replaying stops at the record, where it once trapped converting the trigger; what came
    // before it reproduces, and the status says the rest was not read.
    let (verified, _, _) = try await self.replay(["verify"], on: records)
    #expect(verified.status == 4)
    #expect(
      verified.output.hasSuffix(
        """
        note: the recording is stopped at record \(fifth + 1) (byte offset \(offsets[fifth])) \
        is not a record: \
        its trigger is -5, not an earlier action: an action an effect fed back names the action \
        whose effect it was, from 1 to 4; only its whole records were verified.

        """
      ),
      "\(verified.output)"
    )
  }

  @Test func aTriggerOnTheFirstActionIsNamedWhereItIsRead() async throws {
    var records = try Self.records()
    let first = try self.index(of: "action", 1, in: records)
    records[first]["trigger"] = 3
    // The parallel scan checks that a trigger is a number; reading the action checks the rest.
    let (verified, offsets, _) = try await self.replay(["verify"], on: records)
    #expect(
      verified
        == ProcessResult(
          status: 1,
          output: "",
          errors: """
            replay: Record \(first + 1) (byte offset \(offsets[first])) cannot be decoded at \
            trigger: 3 is not \
            an earlier action: action 1 comes first, so no effect can have fed it back. The \
            recording may come from another version of the feature; replay it with the code that \
            recorded it, or record it again.

            """
        )
    )
  }

  /// Checks `records` with `replay verify --integrity`, which must fail and name first the
  /// damage `firstDamage` says, given the records' byte offsets.
  private func expectDamage(
    _ records: [[String: Any]], firstDamage: ([Int]) -> String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let (checked, offsets, _) = try await self.replay(["verify", "--integrity"], on: records)
    #expect(checked.status == 1, sourceLocation: sourceLocation)
    #expect(
      checked.output.hasPrefix("hostile.actionlog is damaged:\n  • \(firstDamage(offsets))\n"),
      "\(checked.output)", sourceLocation: sourceLocation
    )
  }

  @Test func aTimeBeforeTheStartIsNamed() async throws {
    var records = try Self.records()
    let first = try self.index(of: "action", 1, in: records)
    records[first]["time"] = Int64.min
    try await self.expectDamage(records) { offsets in
      """
      record \(first + 1) (byte offset \(offsets[first])) is not a record: its time is \
      -9223372036854775808: \
      an action's time counts nanoseconds from the start, from 0
      """
    }
  }

  @Test func aCheckpointClaimingTheLastIntegerIsAnsweredAtOnce() async throws {
    var records = try Self.records()
    let checkpoint = try self.index(of: "checkpoint", 1, in: records)
    records[checkpoint]["seq"] = Int.max
    try await self.expectDamage(records) { offsets in
      """
      record \(checkpoint + 1) (byte offset \(offsets[checkpoint])) is out of place: a \
      checkpoint after action 9223372036854775807, which is not recorded yet
      """
    }
  }

  @Test func anActionClaimingABillionIsAnsweredAtOnce() async throws {
    var records = try Self.records()
    let fifth = try self.index(of: "action", 5, in: records)
    records[fifth]["seq"] = 1_000_000_000
    try await self.expectDamage(records) { offsets in
      """
      record \(fifth + 1) (byte offset \(offsets[fifth])) is action 1000000000, but action 5 \
      was expected: \
      actions are missing
      """
    }
  }

  @Test func aRedactionPathPastTheLimitIsRefused() async throws {
    var records = try Self.records()
    let path = Array(repeating: "a", count: 5_000).joined(separator: ".")
    records[0]["redacted"] = ["state": [path], "actions": [String]()]
    let (verified, _, file) = try await self.replay(["verify"], on: records)
    #expect(
      verified
        == ProcessResult(
          status: 1,
          output: "",
          errors: """
            replay: \(file) does not start with a valid header record (redacted: The \
            redaction path "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.…" is not valid at character \
            1025: the path is longer than 1024 characters. Write paths as todos[*].title, \
            user.email or **.password.). It may not be an action log, or its first line is \
            damaged; nothing can be replayed without the header.

            """
        )
    )
  }

  @Test func aReducerThatTrapsIsAVerdictWhenIsolated() async throws {
    var records = try Self.records()
    var state = try #require(records[0]["initialState"] as? [String: Any])
    state["count"] = Int.max
    records[0]["initialState"] = state
    // The counter's first action increments the count: an overflow, which traps.
    let (verified, _, _) = try await self.replay(["verify", "--isolated"], on: records)
    #expect(
      verified
        == ProcessResult(
          status: 1,
          output: """
            hostile.actionlog: the reducer crashed at step 1 of 118 (a trap: an arithmetic \
            overflow, a failed precondition or a fatalError).

              Action at step 1 (+0.350s):
                CounterFeature.Action.incrementButtonTapped

            The recording holds a value the reducer cannot handle there: fix the reducer if the \
            value is one it may meet, or leave the recording out if it was made to break it.

            """,
          errors: ""
        )
    )
  }

  @Test func aFileClaimingABillionActionsAllocatesForTheFileNotTheClaim() async throws {
    let records = try Self.records()
    let header = records[0]
    let (first, second) = (records[1], records[2])
    let billion = 1_000_000_000
    var claims: [String: [[String: Any]]] = [:]
    claims["end"] = [header, first, second, ["kind": "end", "seq": billion, "time": 1]]
    claims["checkpoint"] = [
      header, first, second,
      ["kind": "checkpoint", "seq": billion, "value": ["count": 1, "isLoading": false]],
    ]
    claims["action"] = [header, first, second.merging(["seq": billion]) { $1 }]
    claims["trigger"] = [
      header, first, second.merging(["source": "effect", "trigger": billion]) { $1 },
    ]
    var interval = header
    interval["checkpointInterval"] = billion
    claims["interval"] = [interval, first, second, ["kind": "end", "seq": 2, "time": 1]]
    let directory = TemporaryDirectory()
    var runs: [[String]] = []
    for (name, records) in claims.sorted(by: { $0.key < $1.key }) {
      let bytes = try Self.framed(records)
      #expect(bytes.count < 1_024)
      let file = directory.file("\(name).actionlog")
      try bytes.write(to: file)
      for command in [["info", "--json"], ["verify", "--integrity"], ["verify"], ["list"]] {
        runs.append(command + [file.path])
      }
    }
    // Each command runs with the address space the bundled recording's replay needs, plus
    // 64 MB: a table sized by a claimed billion (a gigabyte at one byte an action) cannot fit.
    let replay = try #require(productURL("replay"))
    let script = packageRoot.appendingPathComponent(
      "Tests/ReplayCommandTests/Support/address_space.py")
    let limited = try await run(
      "python3",
      [script.path, "64", replay.path, "verify", bundledRecording("counter").path]
        + runs.flatMap { ["--"] + $0 },
      in: directory.url, isProduct: false
    )
    #expect(limited.status == 0, "\(limited.errors)")
    let lines = limited.output.split(separator: "\n").map(String.init)
    #expect(lines.count == runs.count, "\(limited.output)")
    for (run, line) in zip(runs, lines) {
      // 0 to 4: an answer (a verdict or a typed error, see `replay verify --help`); a negative
      // status is the signal that ended it.
      let status = Int(line.prefix { $0 != " " }) ?? -1
      #expect(
        (0...4).contains(status),
        "replay \(run.joined(separator: " ")): \(line)"
      )
    }
  }

  @Test func aRecordedEffectThatIsNoShapeIsNamed() async throws {
    var records = try Self.records()
    let third = try self.index(of: "action", 3, in: records)
    #expect(records[third]["yields"] != nil, "the counter's third action starts a request")
    records[third]["yields"] = ["run": 3]
    let (verified, _, _) = try await self.replay(["verify"], on: records)
    #expect(
      verified
        == ProcessResult(
          status: 1, output: "",
          errors: """
            replay: Action 3's recorded effects ({"run":3}) are not an effect shape this reader \
            knows: the recording was damaged, or written by a newer ComposableReplay. verify \
            --integrity checks it; effects: .ignore compares states only.

            """))
  }
}
