import ActionLog
import ComposableArchitecture
import ExampleContactDetail
import Foundation
import ReplayTesting
import Testing
import TimeTravel

/// The contact's screen tested from its own recordings, cut out of the Contacts app's bundled
/// recording: this target links the screen's module and not the app's.
@Suite struct ContactDetailRecordingTests {
  static let appRecording = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Recordings/contacts.actionlog")

  static let names = ChildRecording.Names(
    feature: "contactDetail", stateType: "ExampleContactDetail.ContactDetail.State",
    actionType: "ExampleContactDetail.ContactDetail.Action")

  /// The screen at `path` in the app's recording, written to a new folder.
  func export(_ path: String, from: Int? = nil) throws -> ChildRecording {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("contact-detail-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return try ChildRecording.export(
      Recording(contentsOf: Self.appRecording), path: StatePath(path), from: from,
      to: folder.appendingPathComponent("detail.actionlog")
    ) { _, _ in Self.names }
  }

  @Test func aScreenReplaysWithItsReducerAlone() throws {
    // Grace's screen: her number typed, the address book's sync written in by the app, saved.
    let grace = try self.export("path[id: 1].detail")
    #expect(grace.outsideWrites.count == 1)
    #expect(grace.ending?.how == "popped")
    #expect(grace.recording.header.metadata["scope"] == "path[id: 1].detail")
    try assertReplay(try #require(grace.recording.url)) { ContactDetail() }

    // Edsger's: a confirmation dialog, then deleted; nothing written from outside.
    let edsger = try self.export("path[id: 4].detail")
    #expect(edsger.outsideWrites.isEmpty)
    try assertReplay(try #require(edsger.recording.url)) { ContactDetail() }
  }

  @Test func withoutTheAppsWritesTheReplayDiffersAfterThem() throws {
    let grace = try self.export("path[id: 1].detail")
    let url = try #require(grace.recording.url)
    // The same file without the lines of the app's writes: every other line is whole.
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let kept = lines.filter { !$0.contains(#""source":"parent""#) }
    #expect(kept.count == lines.count - 1)
    let stripped = url.deletingLastPathComponent().appendingPathComponent("stripped.actionlog")
    try (kept.joined(separator: "\n") + "\n").write(to: stripped, atomically: true, encoding: .utf8)

    let recording = try Recording(contentsOf: stripped)
    let timeline = try Timeline(
      recording: recording, reducer: ContactDetail(), feature: Self.names.feature)
    let divergence = try #require(try timeline.verify())
    // The first step after the sync: the screen saves the name the sync wrote.
    let writes = try #require(StepList.steps(grace.recording.header.metadata["appWrites"] ?? ""))
    let firstAfter = try #require(grace.appSteps.firstIndex { $0 > writes[0] }) + 1
    #expect(divergence.step == firstAfter)
    #expect(divergence.diff?.contains("Grace Hopper") == true)
  }

  @Test func aBugInTheScreenFailsItsOwnTest() throws {
    let ada = try self.export("path[id: 0].detail")
    let timeline = try Timeline(
      recording: ada.recording,
      reducer: ContactDetail().dependency(\.reintroducedBugs, .editedFormStaysChangedAfterUndo),
      feature: Self.names.feature)
    let divergence = try #require(try timeline.verify())
    // Typing "Ada" back into the name: the form is unchanged, but the bug keeps it changed.
    let action = try ada.recording.action(divergence.step, as: ContactDetail.Action.self).action
    #expect(action == .binding(.set(\.name, "Ada")))
    #expect(divergence.diff?.contains("hasChanges") == true)
  }
}
