import ActionLog
import Foundation
import TestSupport
import Testing

/// Today's types, after two changes since `Tally` and `Step` were recorded: a field added to the
/// state, a field of the action renamed.
struct TallyV2: Codable, Equatable {
  var total: Int
  var bonus: Int
}

struct StepV2: Codable, Equatable {
  var amount: Int
  var note: String
}

struct StepV2Renamed: Codable, Equatable {
  var amount: Int
}

enum Command: Codable, Equatable {
  case added(Int)
  case wrapped(Inner)

  enum Inner: Codable, Equatable {
    case cleared
  }
}

@Suite struct MigrationTests {
  static let schema = FeatureSchema(
    version: 2,
    migrations: [
      Migration(
        from: 1,
        .addField("bonus", default: 0),
        .renameField("number", to: "amount", of: .actions)
      )
    ]
  )

  func recording() throws -> Recording {
    let directory = TemporaryDirectory()
    _ = try writeLog(to: directory.file(), count: 4)
    return try Recording(contentsOf: directory.file())
  }

  @Test func aRecordingOfAnOlderVersionIsReadThroughItsMigrations() throws {
    let recording = try self.recording()
    #expect(recording.header.schemaVersion == 1)
    let migrated = try recording.migrated(to: Self.schema)
    #expect(
      migrated.appliedMigrationSteps == [
        #".addField("bonus", default: 0)"#, #".renameField("number", to: "amount", of: .actions)"#,
      ])
    #expect(try migrated.initialState(as: TallyV2.self) == TallyV2(total: 0, bonus: 0))
    #expect(try migrated.checkpoint(after: 4, as: TallyV2.self) == TallyV2(total: 10, bonus: 0))
    let action = try migrated.action(3, as: StepV2.self)
    #expect(action.action == StepV2(amount: 3, note: ""))
    #expect(action.origin == .effect(parent: 2))
    #expect(try migrated.actionJSON(3) == #"{"amount":3,"note":""}"#)
    // The original reads as it was recorded, and a recording at the schema's version pays nothing.
    #expect(try recording.action(3, as: Step.self).action == Step(number: 3))
    #expect(try recording.migrated(to: .initial) === recording)
  }

  @Test func onlyRecordsHoldingARenamedKeyChange() throws {
    let recording = try self.recording()
    let renamed = try recording.migrated(
      to: FeatureSchema(
        version: 2,
        migrations: [Migration(from: 1, .renameField("number", to: "amount", of: .actions))]))
    // Every action holds "number": each is renamed, and nothing else in it changes.
    for seq in 1...recording.count {
      let original = try recording.actionJSON(seq)
      let migratedJSON = try renamed.actionJSON(seq)
      let expected = original.replacingOccurrences(of: #""number""#, with: #""amount""#)
      #expect(
        try JSONValue.parse(Array(migratedJSON.utf8)) == JSONValue.parse(Array(expected.utf8)),
        "\(original) → \(migratedJSON)")
      #expect(try renamed.action(seq, as: StepV2Renamed.self).action.amount > 0)
    }
    // A key no record holds: the records are read as they were written.
    let untouched = try recording.migrated(
      to: FeatureSchema(
        version: 2,
        migrations: [Migration(from: 1, .renameField("absent", to: "present", of: .actions))]))
    for seq in 1...recording.count {
      #expect(try untouched.actionJSON(seq) == recording.actionJSON(seq))
    }
  }

  @Test func withoutTheMigrationTheMessageWritesTheStep() throws {
    let recording = try self.recording()
    #expect {
      try recording.initialState(as: TallyV2.self)
    } throws: { error in
      "\(error)" == """
        Record 1 (byte offset 0), the initial state, cannot be decoded at initialState.bonus: \
        ActionLogTests.TallyV2 has a field "bonus" that the recording lacks. If the types \
        changed since the recording was made, migrate it rather than record it again: raise the \
        feature's schema version and add the step .addField("bonus", default: …) to the \
        migration from the recording's version (FeatureSchema, in the README's "I changed my \
        types").
        """
    }
    let action = try #require(
      throws: ActionLogError.self, performing: { try recording.action(2, as: StepV2.self) })
    guard case .typesChanged(let record, _, let value, let path, _, let step) = action else {
      Issue.record("\(action)")
      return
    }
    #expect(record == 3)
    #expect(value == "action 2")
    #expect(path == "value.amount")
    #expect(step == #".addField("amount", default: …, of: .actions)"#)
  }

  @Test func stepsFollowPathsAndRenameCasesAtAnyDepth() throws {
    var action = try JSONDecoder().decode(
      JSONValue.self, from: Data(#"{"old":{"_0":{"old":{}}},"list":[{"a":1},{"a":2}]}"#.utf8))
    try MigrationStep.renameCase("old", to: "new").apply(to: &action)
    #expect(action.text == #"{"list":[{"a":1},{"a":2}],"new":{"_0":{"new":{}}}}"#)
    try MigrationStep.renameField("a", to: "b", in: "list[*]").apply(to: &action)
    try MigrationStep.addField("c", default: [1, 2], in: "list[1]").apply(to: &action)
    try MigrationStep.removeField("_0", in: "new").apply(to: &action)
    #expect(action.text == #"{"list":[{"b":1},{"b":2,"c":[1,2]}],"new":{}}"#)
    try MigrationStep.custom("count the list", of: .actions) { value in
      if case .array(let list)? = value["list"] { value["count"] = .integer(Int64(list.count)) }
    }.apply(to: &action)
    #expect(action["count"] == .integer(2))
    // A field the value has already is left as it is.
    try MigrationStep.addField("count", default: 9).apply(to: &action)
    #expect(action["count"] == .integer(2))
  }

  @Test func aCaseRenamedInEncodedSwiftDecodes() throws {
    var value = try JSONDecoder().decode(
      JSONValue.self, from: Data(#"{"boxed":{"_0":{"reset":{}}}}"#.utf8))
    try MigrationStep.renameCase("boxed", to: "wrapped").apply(to: &value)
    try MigrationStep.renameCase("reset", to: "cleared", in: "wrapped._0").apply(to: &value)
    let decoded = try JSONDecoder().decode(Command.self, from: Data(value.text.utf8))
    #expect(decoded == .wrapped(.cleared))
  }

  @Test func aNewerRecordingAGapAndABadStepAreRefused() throws {
    #expect(throws: MigrationError.newerThanCode(recorded: 3, current: 2)) {
      try Self.schema.steps(from: 3)
    }
    #expect(
      "\(MigrationError.newerThanCode(recorded: 3, current: 2))" == """
        This recording is at version 3 of the feature, and this code knows versions up to 2: it \
        was made by newer code. Open it with that code; a recording is never read by guessing \
        what a newer version meant.
        """)
    let gap = FeatureSchema(version: 3, migrations: [Migration(from: 1)])
    #expect(throws: MigrationError.missingMigration(from: 2, recorded: 1, current: 3)) {
      try gap.steps(from: 1)
    }
    #expect(
      "\(MigrationError.missingMigration(from: 2, recorded: 1, current: 3))" == """
        This recording is at version 1 of the feature, and the code at version 3, but no \
        migration from version 2 to 3 is registered: add Migration(from: 2, …) to the feature's \
        migrations.
        """)
    let bad = FeatureSchema(
      version: 2, migrations: [Migration(from: 1, .removeField("x", in: "a..b"))])
    #expect(throws: MigrationError.self) { try self.recording().migrated(to: bad) }
  }
}

/// The parser migrations read records with, against Foundation's decoder, on every record of
/// every bundled recording and on the escapes and numbers JSON allows.
@Suite struct JSONValueParserTests {
  @Test func agreesWithFoundationOnEveryBundledRecord() throws {
    let folder = recordingsFolder
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".actionlog") }
    #expect(files.count >= 10)
    var records = 0
    for file in files {
      let data = try Data(contentsOf: folder.appendingPathComponent(file))
      for line in data.split(separator: UInt8(ascii: "\n")) {
        let payload = Data(line.dropFirst(9))
        let ours = try payload.withUnsafeBytes { try JSONValue.parse($0) }
        let foundation = try JSONDecoder().decode(JSONValue.self, from: payload)
        #expect(ours == foundation, "\(file)")
        #expect(ours.bytes == Array(foundation.text.utf8))
        records += 1
      }
    }
    #expect(records > 1_000)
  }

  @Test func escapesNumbersAndErrors() throws {
    let text =
      #" {"a":"\u00e9\ud834\udd1e\n\"\\\/","b":[-0,1.5e3,-9223372036854775808,1e400],"c":null} "#
    let bad = Array(#"{"a":1e400}"#.utf8)
    #expect(throws: JSONValueSyntaxError.self) { try JSONValue.parse(bad) }
    let good = Array(text.replacingOccurrences(of: ",1e400", with: "").utf8)
    let value = try JSONValue.parse(good)
    #expect(value["a"] == .string("é𝄞\n\"\\/"))
    #expect(value["b"] == [.integer(0), .number(1_500), .integer(Int64.min)])
    #expect(value["c"] == .null)
    #expect(
      String(decoding: value.bytes, as: UTF8.self)
        == #"{"a":"é𝄞\n\"\\/","b":[0,1500,-9223372036854775808],"c":null}"#)
    for broken in [#"{"a" 1}"#, "[1,]", #""unclosed"#, "tru", "{}x", #""\x""#] {
      #expect(throws: JSONValueSyntaxError.self, "\(broken)") {
        try JSONValue.parse(Array(broken.utf8))
      }
    }
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: JSONValueSyntaxError.self) { try JSONValue.parse(Array(deep.utf8)) }
  }
}
