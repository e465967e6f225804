import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing

/// Every recording in `Recordings/` and `Recordings/legacy/` is a regression test: today's
/// reducers must reproduce it, the legacy ones (made with older versions of the types) through
/// their features' migrations. A new recording joins the suite by being saved there; its feature
/// needs a line below. `bug-reports/` is not part of it: it keeps recordings as they were
/// reported, of behaviour that has since been fixed. `COMPOSABLE_REPLAY_SHARD=K/N` runs part K of
/// N, as `replay check --shard` splits them.
@Suite struct RecordingsRegressionTests {
  static let folder = bundledRecording("counter").deletingLastPathComponent()

  /// The recordings in the folder and in `legacy/`, by path from the folder: those in `shard`.
  static func recordings() throws -> [String] {
    try Self.recordings(shard: RecordingShard.fromEnvironment())
  }

  static func recordings(shard: RecordingShard?) throws -> [String] {
    try ["", "legacy/"].flatMap { prefix in
      let folder = Self.folder.appendingPathComponent(prefix).path
      let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      return names.filter { $0.hasSuffix(".actionlog") }.sorted().map { prefix + $0 }
    }
    .filter { shard?.contains($0) ?? true }
  }

  @Test func theFolderHoldsTheBundledRecordings() throws {
    #expect(
      Set([
        "counter.actionlog", "todos.actionlog", "songs.actionlog", "todos-redacted.actionlog",
        "songs-heart-bug.actionlog", "legacy/todos-v1.actionlog", "legacy/todos-v2.actionlog",
        "legacy/todos-v3.actionlog", "legacy/songs-v1.actionlog", "inventory.actionlog",
        "contacts.actionlog", "search.actionlog", "preferences.actionlog",
      ]).isSubset(of: try Self.recordings(shard: nil))
    )
  }

  @Test(arguments: try Self.recordings())
  func replaysAsRecorded(_ name: String) throws {
    let recording = try Recording(contentsOf: Self.folder.appendingPathComponent(name))
    let rerecord = "Tools/record-samples"
    switch recording.header.feature {
    case "counter": try assertReplay(recording, rerecord: rerecord) { CounterFeature() }
    case "todos": try assertReplay(recording, rerecord: rerecord) { Todos() }
    case "songs": try assertReplay(recording, rerecord: rerecord) { SongsApp() }
    case "inventory": try assertReplay(recording, rerecord: rerecord) { Inventory() }
    case "contacts": try assertReplay(recording, rerecord: rerecord) { Contacts() }
    case "search": try assertReplay(recording, rerecord: rerecord) { CitySearch() }
    case "preferences": try assertReplay(recording, rerecord: rerecord) { Preferences() }
    // A row cut out of the songs app's recording (the README's "One feature's own recording").
    case "songRow":
      try assertReplay(
        recording,
        rerecord: """
          replay export Recordings/songs-heart-bug.actionlog --scope 'library.songs[id: 6]' \
          -o Recordings/song-row-heart.actionlog --force
          """
      ) { SongRow() }
    case let feature:
      Issue.record(
        """
        \(name) is a recording of "\(feature)", which this suite does not know: add its reducer \
        to RecordingsRegressionTests.replaysAsRecorded.
        """
      )
    }
  }
}

/// `recordings(in:)`, a parameterized test's cases: every recording under a folder, or the part
/// of them `COMPOSABLE_REPLAY_SHARD` names.
@Suite struct RecordingsInFolderTests {
  static let folder = bundledRecording("counter").deletingLastPathComponent()
    .appendingPathComponent("legacy")

  @Test(arguments: try recordings(in: Self.folder))
  func eachIsARecording(_ url: URL) throws {
    #expect(try Recording(contentsOf: url).count > 0)
  }

  @Test func theShardsOfAFolderAreTheFolder() throws {
    let all = try recordings(in: Self.folder, shard: nil)
    #expect(
      all.map(\.lastPathComponent)
        == ["songs-v1.actionlog", "todos-v1.actionlog", "todos-v2.actionlog", "todos-v3.actionlog"])
    let parts = try (1...3).map {
      try recordings(in: Self.folder, shard: RecordingShard(part: $0, of: 3))
    }
    #expect(parts.flatMap { $0 }.sorted { $0.path < $1.path } == all)
    #expect(throws: (any Error).self) {
      try recordings(in: Self.folder.appendingPathComponent("missing"), shard: nil)
    }
  }
}
