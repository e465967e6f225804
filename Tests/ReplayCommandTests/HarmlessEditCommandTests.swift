import Foundation
import TestSupport
import Testing

/// Recordings made before a harmless edit of the feature: every `.run` three lines further down
/// (comment lines added above it) and merged effects in the other order (children reordered).
/// Through the real `replay`, they verify, check, migrate and rerecord; a real change of
/// behaviour still fails.
@Suite struct HarmlessEditCommandTests {
  /// An effect ledger entry as an older release wrote it: each run `lines` lines earlier, each
  /// merge reversed.
  static func beforeTheEdit(_ effect: Any, lines: Int = 3) -> Any {
    guard let members = effect as? [String: Any], let (key, value) = members.first,
      members.count == 1
    else { return effect }
    switch (key, value) {
    case ("run", let site as String):
      let colon = site.lastIndex(of: ":")!
      let line = Int(site[site.index(after: colon)...])!
      return ["run": "\(site[..<colon]):\(line - lines)"]
    case ("merge", let effects as [Any]):
      return ["merge": effects.reversed().map { Self.beforeTheEdit($0, lines: lines) }]
    case ("concatenate", let effects as [Any]):
      return ["concatenate": effects.map { Self.beforeTheEdit($0, lines: lines) }]
    case ("cancellable", var fields as [String: Any]):
      fields["effect"] = fields["effect"].map { Self.beforeTheEdit($0, lines: lines) }
      return ["cancellable": fields]
    default:
      return effect
    }
  }

  /// `records` with every ledger entry passed through `edit`.
  static func editingLedger(_ records: [[String: Any]], _ edit: (Any) -> Any) -> [[String: Any]] {
    records.map { record in
      var record = record
      if let yields = record["yields"] { record["yields"] = edit(yields) }
      return record
    }
  }

  /// How many entries `edit` changed.
  static func changes(_ records: [[String: Any]], _ edited: [[String: Any]]) throws -> Int {
    try zip(records, edited).filter { old, new in
      try HostileRecordingTests.framed([old]) != HostileRecordingTests.framed([new])
    }.count
  }

  @Test(arguments: ["todos", "songs", "counter"])
  func aRecordingOfTheReleaseBeforeVerifiesChecksAndRerecords(name: String) async throws {
    let records = try HostileRecordingTests.records(name)
    let edited = Self.editingLedger(records) { Self.beforeTheEdit($0) }
    #expect(try Self.changes(records, edited) > 0)
    let directory = TemporaryDirectory()
    let file = "\(name).actionlog"
    try HostileRecordingTests.framed(edited).write(to: directory.file(file))

    let verify = try await run("replay", ["verify", file], in: directory.url)
    #expect(verify.status == 0, "\(verify.output)\(verify.errors)")

    let check = try await run("replay", ["check", "."], in: directory.url)
    #expect(check.status == 0, "\(check.output)\(check.errors)")

    let rerecord = try await run(
      "replay", ["rerecord", file, "-o", "again.actionlog"], in: directory.url)
    #expect(rerecord.status == 0, "\(rerecord.output)\(rerecord.errors)")
    #expect(!rerecord.output.contains("other effects"), "\(rerecord.output)")
    // Rerecording writes where the work is now: the bundled sites.
    let again = try Data(contentsOf: directory.file("again.actionlog"))
    let bundled = try Data(contentsOf: bundledRecording(name))
    let sites = { (data: Data) in
      String(decoding: data, as: UTF8.self).matches(of: /"run":"[^"]*"/).map { String($0.0) }
    }
    #expect(sites(again) == sites(bundled))
  }

  /// The bundled todos at version 3, as that release recorded it: `deleteMany(ids:)` was still
  /// `delete(ids:)`.
  static func todosVersion3(_ records: [[String: Any]]) -> [[String: Any]] {
    records.map { record in
      var record = record
      if record["kind"] as? String == "header" { record["schema"] = 3 }
      if var value = record["value"] as? [String: Any],
        let many = value.removeValue(
          forKey: "deleteMany")
      {
        value["delete"] = many
        record["value"] = value
      }
      return record
    }
  }

  @Test func anOlderVersionRecordedBeforeTheEditMigrates() async throws {
    let records = Self.todosVersion3(try HostileRecordingTests.records("todos"))
    let edited = Self.editingLedger(records) { Self.beforeTheEdit($0) }
    let directory = TemporaryDirectory()
    try HostileRecordingTests.framed(edited).write(to: directory.file("todos-v3.actionlog"))
    let migrate = try await run(
      "replay", ["migrate", "todos-v3.actionlog", "-o", "todos.actionlog"], in: directory.url)
    #expect(migrate.status == 0, "\(migrate.output)\(migrate.errors)")
    #expect(migrate.output.contains("Read back: version 4"), "\(migrate.output)")
  }

  @Test func aRealChangeStillFailsWithTheStepAndBothSides() async throws {
    // The recording says the todo's completion did not cancel the one in flight: today's does.
    let records = try HostileRecordingTests.records("todos")
    let edited = Self.editingLedger(records) { effect in
      guard var members = effect as? [String: Any],
        var fields = members["cancellable"] as? [String: Any]
      else { return effect }
      fields.removeValue(forKey: "cancelInFlight")
      members["cancellable"] = fields
      return Self.beforeTheEdit(members)
    }
    let directory = TemporaryDirectory()
    try HostileRecordingTests.framed(edited).write(to: directory.file("todos.actionlog"))
    let verify = try await run("replay", ["verify", "todos.actionlog"], in: directory.url)
    #expect(verify.status == 1)
    let step = try #require(
      records.first { $0["yields"] != nil && $0["kind"] as? String == "action" }?["seq"] as? Int)
    #expect(
      verify.output.hasPrefix(
        """
        The replay's effects differ from the recording at step \(step): today's reducer returns \
        other effects for the same action.
        """), "\(verify.output)")
    #expect(
      verify.output.contains(
        """
            − cancellable(CancelID.todoCompletion, run at Todos.swift:83)
            + cancellable(CancelID.todoCompletion, cancelInFlight, run at Todos.swift:86)
        """), "\(verify.output)")
  }
}
