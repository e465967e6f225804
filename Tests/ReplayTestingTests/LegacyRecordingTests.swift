import ActionLog
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing
import TimeTravel

/// The example features' real changes of their types, each with a recording made before it
/// (`Recordings/legacy`, by `Tools/record-samples` at that version): without the migration the
/// recording is refused with the step that would read it; with it, the recording replays.
@Suite struct LegacyRecordingTests {
  static func legacy(_ name: String) throws -> Recording {
    try Recording(contentsOf: recordingsFolder.appendingPathComponent("legacy/\(name).actionlog"))
  }

  /// The todos' schema with the migration from `version` left empty: the code as it would be
  /// had that change been made without its migration.
  static func todosWithout(from version: Int) -> FeatureSchema {
    let schema = Todos.State.schema
    return FeatureSchema(
      version: schema.version,
      migrations: schema.migrations.map { $0.version == version ? Migration(from: version) : $0 }
    )
  }

  /// What verifying `recording` with `schema` throws.
  static func failure(_ recording: Recording, schema: FeatureSchema) -> String {
    do {
      let timeline = try Timeline(
        recording: recording, reducer: Todos(), feature: "todos", schema: schema)
      return "\(String(describing: try timeline.verify()))"
    } catch {
      return "\(error)"
    }
  }

  /// Replays `recording` with today's todos (their schema found on their state type), checks it
  /// with `assertReplay`, and migrates it: the migrated copy needs no migration any more.
  static func expectReplaysAfterMigration(
    _ recording: Recording, from version: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
    #expect(try timeline.verify() == nil, sourceLocation: sourceLocation)
    try timeline.goto(120)
    #expect(try timeline.diff(from: 119, to: 120) != nil, sourceLocation: sourceLocation)
    try assertReplay(recording) { Todos() }

    let directory = TemporaryDirectory()
    _ = try recording.export(
      to: directory.file(), options: ExportOptions(schema: Todos.State.schema))
    let migrated = try Recording(contentsOf: directory.file())
    #expect(migrated.header.schemaVersion == 4, sourceLocation: sourceLocation)
    #expect(migrated.header.migration?.from == version, sourceLocation: sourceLocation)
    let noMigrations = FeatureSchema(version: 4)
    let replayed = try Timeline(
      recording: migrated, reducer: Todos(), feature: "todos", schema: noMigrations)
    #expect(try replayed.verify() == nil, sourceLocation: sourceLocation)
  }

  @Test func aFieldAddedToTodoState() throws {
    let recording = try Self.legacy("todos-v1")
    #expect(
      Self.failure(recording, schema: Self.todosWithout(from: 1)) == """
        Record 52 (byte offset 10089), the checkpoint after action 50, cannot be decoded at \
        value.todos[0].priority: ExampleFeatures.Todos.State has a field "priority" in todos[*] \
        that the recording lacks. If the types changed since the recording was made, migrate it \
        rather than record it again: raise the feature's schema version and add the step \
        .addField("priority", default: …, in: "todos[*]") to the migration from the recording's \
        version (FeatureSchema, in the README's "I changed my types").
        """)
    try Self.expectReplaysAfterMigration(recording, from: 1)
  }

  @Test func anActionCaseRenamed() throws {
    let recording = try Self.legacy("todos-v2")
    #expect(
      Self.failure(recording, schema: Self.todosWithout(from: 2)) == """
        Record 121 (byte offset 24981), action 118, cannot be decoded at value: \
        "sortCompletedTodos" is not a case of ExampleFeatures.Todos.Action (its cases: \
        addTodoButtonTapped, clearCompletedButtonTapped, delete, deleteMany, filterPicked, \
        sortCompleted, todos). If the types changed since the recording was made, migrate it \
        rather than record it again: raise the feature's schema version and add the step \
        .renameCase("sortCompletedTodos", to: "…") to the migration from the recording's version \
        (FeatureSchema, in the README's "I changed my types").
        """)
    try Self.expectReplaysAfterMigration(recording, from: 2)
  }

  @Test func aCaseSplitInTwo() throws {
    let recording = try Self.legacy("todos-v3")
    #expect(
      Self.failure(recording, schema: Self.todosWithout(from: 3)) == """
        Record 141 (byte offset 27869), action 138, cannot be decoded at value.delete.id: \
        ExampleFeatures.Todos.Action has a field "id" in delete that the recording lacks. If the \
        types changed since the recording was made, migrate it rather than record it again: \
        raise the feature's schema version and add the step .addField("id", default: …, in: \
        "delete", of: .actions) to the migration from the recording's version (FeatureSchema, in \
        the README's "I changed my types").
        """)
    try Self.expectReplaysAfterMigration(recording, from: 3)
  }

  @Test func aFieldRemovedFromSong() throws {
    let recording = try Self.legacy("songs-v1")
    // A field the types lost is one decoding ignores: the recording replays even with an empty
    // migration, but not without one, since its version is older.
    let empty = FeatureSchema(version: 2, migrations: [Migration(from: 1)])
    let lenient = try Timeline(
      recording: recording, reducer: SongsApp(), feature: "songs", schema: empty)
    #expect(try lenient.verify() == nil)
    #expect {
      try Timeline(
        recording: recording, reducer: SongsApp(), feature: "songs",
        schema: FeatureSchema(version: 2))
    } throws: { error in
      "\(error)" == """
        This recording is at version 1 of the feature, and the code at version 2, but no \
        migration from version 1 to 2 is registered: add Migration(from: 1, …) to the feature's \
        migrations.
        """
    }
    // With the migration, the duration is gone from what is read and from a migrated copy.
    let timeline = try Timeline(recording: recording, reducer: SongsApp(), feature: "songs")
    #expect(try timeline.verify() == nil)
    try assertReplay(recording) { SongsApp() }
    #expect(try recording.initialState(as: JSONValue.self).text.contains("duration"))
    let migrated = try recording.migrated(to: SongsApp.State.schema)
    #expect(!(try migrated.initialState(as: JSONValue.self).text.contains("duration")))
    let directory = TemporaryDirectory()
    _ = try recording.export(
      to: directory.file(), options: ExportOptions(schema: SongsApp.State.schema))
    let bytes = try String(contentsOf: directory.file(), encoding: .utf8)
    #expect(bytes.contains(#""duration":"#) == false)
    #expect(bytes.contains(#""migrated":{"from":1,"steps":["#))
  }

  @Test func aRecordingNewerThanTheCodeIsRefused() throws {
    let recording = try Recording(contentsOf: bundledRecording("todos"))
    let older = FeatureSchema(
      version: 3, migrations: Array(Todos.State.schema.migrations.prefix(2)))
    #expect(
      Self.failure(recording, schema: older) == """
        This recording is at version 4 of the feature, and this code knows versions up to 3: it \
        was made by newer code. Open it with that code; a recording is never read by guessing \
        what a newer version meant.
        """)
  }
}
