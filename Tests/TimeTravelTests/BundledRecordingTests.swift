import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TestSupport
import Testing
import TimeTravel

/// The recordings in `Recordings/`: each is complete, replays to every recorded checkpoint with
/// today's reducers, and is what `Tools/record-samples` produces.
@Suite struct BundledRecordingTests {
  static let folder = recordingsFolder

  @Test func counterReplaysToEveryCheckpoint() throws {
    try self.assertReplays("counter", CounterFeature(), minimumEffectActions: 20)
  }

  @Test func todosReplaysToEveryCheckpoint() throws {
    try self.assertReplays("todos", Todos(), minimumEffectActions: 5, capturesUUIDs: true)
  }

  @Test func songsReplaysToEveryCheckpoint() throws {
    try self.assertReplays("songs", SongsApp(), minimumEffectActions: 20)
  }

  @Test func inventoryReplaysToEveryCheckpoint() throws {
    try self.assertReplays("inventory", Inventory(), minimumEffectActions: 12, capturesUUIDs: true)
  }

  @Test func contactsReplaysToEveryCheckpoint() throws {
    try self.assertReplays("contacts", Contacts(), minimumEffectActions: 6, capturesUUIDs: true)
    // Each push is recorded with the identity the screen got, so later actions find it.
    let recording = try Recording(
      contentsOf: Self.folder.appendingPathComponent("contacts.actionlog"))
    let pushed = try (1...recording.count).flatMap {
      try recording.action($0, as: Contacts.Action.self).captured["stackElementID"]
    }
    #expect(pushed == ["0", "1", "2", "3", "4"])
  }

  @Test func searchReplaysToEveryCheckpoint() throws {
    try self.assertReplays("search", CitySearch(), minimumEffectActions: 8)
  }

  @Test func recordSamplesReproducesTheBundledRecordings() async throws {
    let executable = try #require(productURL("record-samples"), "build the record-samples product")
    let directory = TemporaryDirectory()
    let process = Process()
    process.executableURL = executable
    process.arguments = [directory.url.path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // NB: No bound here: Tools/test bounds the whole run, which a hang fails.
    while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(process.terminationStatus == 0)
    for name in [
      "counter", "todos", "songs", "todos-redacted", "songs-heart-bug",
      "bug-reports/songs-heart-bug-as-reported", "inventory", "contacts", "search",
    ] {
      let regenerated = try Data(contentsOf: directory.file("\(name).actionlog"))
      let bundled = try Data(contentsOf: Self.folder.appendingPathComponent("\(name).actionlog"))
      #expect(regenerated == bundled, "\(name).actionlog differs: run Tools/record-samples")
    }
    let field = Self.folder.appendingPathComponent("field")
    let segments = try FileManager.default.contentsOfDirectory(atPath: field.path).sorted()
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.file("field").path).sorted()
        == segments)
    for name in segments {
      let regenerated = try Data(contentsOf: directory.file("field/\(name)"))
      let bundled = try Data(contentsOf: field.appendingPathComponent(name))
      #expect(regenerated == bundled, "field/\(name) differs: run Tools/record-samples")
    }
  }

  /// `Recordings/field` is what an app that crashed left: a rolling session with no clean end,
  /// whose oldest segments retention deleted, and whose report of the last minutes replays.
  @Test func fieldIsAnUnfinishedSessionWhoseLastMinutesReplay() throws {
    let field = Self.folder.appendingPathComponent("field")
    let sessions = try RecorderOf<CounterFeature>.unfinishedSessions(in: field)
    let session = try #require(sessions.first)
    #expect(sessions.count == 1)
    #expect(session.segments.count >= 5)
    let joined = try session.joined()
    #expect(joined.ending != .clean)
    // Retention kept about 5 minutes of the 10 recorded: the first segment is not the first.
    #expect(joined.firstAction > 1)
    let kept = joined.time(ofAction: joined.count) - joined.time(ofAction: 1)
    #expect(kept >= .seconds(240) && kept <= .seconds(330), "kept \(kept)")

    let directory = TemporaryDirectory()
    let report = directory.file("report.actionlog")
    let summary = try session.bugReport(to: report, last: .minutes(2), note: "after a crash")
    #expect(summary.header.metadata["note"] == "after a crash")
    #expect(summary.header.metadata["appVersion"] == "2.4.1")
    let recording = try Recording(contentsOf: report)
    // Numbered as the session numbered its actions, not as the join of what was kept did.
    let first = joined.firstAction + joined.count - recording.count
    #expect(recording.firstAction == first)
    #expect(summary.header.metadata["segment"] == nil)
    #expect(
      summary.header.metadata["cutFrom"]?.hasPrefix(
        "actions \(first)–\(joined.firstAction + joined.count - 1) of session \(session.name)")
        == true)
    // The report says how the session ended: without its recorder closing it.
    #expect(recording.ending == .unterminated)
    let span = recording.time(ofAction: recording.count) - recording.time(ofAction: 1)
    #expect(span <= .seconds(120) && span >= .seconds(100), "spans \(span)")
    let replayer = Replayer(recording: recording, reducer: CounterFeature())
    var state = try replayer.initialState()
    for seq in 1...recording.count {
      #expect(try replayer.apply(seq, to: &state).isFaithful, "action \(seq)")
    }
    var recordedStates = RecordedStates(recording)
    let json = try recordedStates.state(after: recording.count)
    #expect(state == (try JSONDecoder().decode(CounterFeature.State.self, from: Data(json.bytes))))
  }

  private func assertReplays<R: Reducer>(
    _ name: String,
    _ reducer: R,
    minimumEffectActions: Int,
    capturesUUIDs: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws where R.State: Codable & Equatable, R.Action: Codable {
    let recording = try Recording(
      contentsOf: Self.folder.appendingPathComponent("\(name).actionlog"))
    #expect(recording.header.feature == name, sourceLocation: sourceLocation)
    #expect(
      recording.header.stateType == recordedTypeName(R.State.self), sourceLocation: sourceLocation)
    #expect(recording.ending == .clean, sourceLocation: sourceLocation)
    #expect((50...500).contains(recording.count), sourceLocation: sourceLocation)
    let effectActions = (1...recording.count).filter {
      if case .effect = recording.origin(ofAction: $0) { return true } else { return false }
    }
    #expect(effectActions.count >= minimumEffectActions, sourceLocation: sourceLocation)

    let replayer = Replayer(recording: recording, reducer: reducer)
    var state = try replayer.initialState()
    var uuidsRead = 0
    // Every step's state is in the recording too, without the reducer: each action's update.
    #expect(recording.header.hasStepUpdates, sourceLocation: sourceLocation)
    var recordedStates = RecordedStates(recording)
    var inOrder = [try recordedStates.state(after: 0)]
    var changedSteps = 0
    for seq in 1...recording.count {
      let replayed = try replayer.apply(seq, to: &state)
      #expect(replayed.isFaithful, "action \(seq)", sourceLocation: sourceLocation)
      let json = try recordedStates.state(after: seq)
      inOrder.append(json)
      let recorded = try JSONDecoder().decode(R.State.self, from: Data(json.bytes))
      #expect(recorded == state, "the state after action \(seq)", sourceLocation: sourceLocation)
      if try recording.update(ofAction: seq)?.isEmpty == false { changedSteps += 1 }
      uuidsRead += (try recording.action(seq, as: R.Action.self)).captured["uuid"].count
      if recording.checkpoints.contains(seq) {
        let recorded = try recording.checkpoint(after: seq, as: R.State.self)
        #expect(state == recorded, "checkpoint \(seq)", sourceLocation: sourceLocation)
      }
    }
    if capturesUUIDs {
      #expect(uuidsRead > 0, sourceLocation: sourceLocation)
    }
    #expect(changedSteps > recording.count / 3, sourceLocation: sourceLocation)
    // Read out of order, from the nearest checkpoint, the states agree too.
    for seq in [recording.count, 1, recording.count / 2, 0] {
      #expect(try recording.stateJSON(after: seq) == inOrder[seq], sourceLocation: sourceLocation)
    }
  }
}
