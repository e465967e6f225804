import ActionLog
import Foundation
import TestSupport
import Testing

@Suite struct RecordingExportTests {
  @Test func aCutRenumbersActionsTriggersCheckpointsAndTimes() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 7)
    let recording = try Recording(contentsOf: url)
    let output = directory.file("cut.actionlog")
    let summary = try recording.export(
      to: output, options: ExportOptions(metadata: ["os": "Linux"], cut: .init(after: 4))
    )
    #expect(summary.actions == 3)
    #expect(summary.cutActions == 4)
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map {
      $0.dropFirst(9)
    }
    let expected: [String] = [
      #"{"kind":"action","seq":1,"source":"send","time":10000000,"value":{"note":"","number":5}}"#,
      #"{"kind":"action","seq":2,"source":"effect","time":20000000,"trigger":1,"#
        + #""value":{"note":"","number":6}}"#,
      #"{"kind":"checkpoint","seq":2,"value":{"total":21}}"#,
      #"{"kind":"action","seq":3,"source":"send","time":30000000,"value":{"note":"","number":7}}"#,
      #"{"kind":"end","seq":3,"time":35000000}"#,
    ]
    #expect(lines.dropFirst().map(String.init) == expected)
    #expect(lines.first?.contains(#""initialState":{"total":10}"#) == true)
    #expect(
      lines.first?.contains(
        #""metadata":{"app":"tests","cutFrom":"actions 5–7 of 7,"#
          + #" recorded from 2025-11-22T02:53:20.000Z","os":"Linux"}"#
      ) == true)
    #expect(lines.first?.contains(#""startedAt":"2025-11-22T02:53:20.040Z""#) == true)
  }

  @Test func anEffectWhoseParentWasCutAwayLosesItsTrigger() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 4)
    let output = directory.file("cut.actionlog")
    _ = try Recording(contentsOf: url).export(
      to: output, options: ExportOptions(cut: .init(after: 2)))
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map {
      $0.dropFirst(9)
    }
    #expect(
      lines[1]
        == #"{"kind":"action","seq":1,"source":"effect","time":10000000,"value":{"note":"","#
        + #""number":3}}"#
    )
  }

  @Test func aSubsetRenumbersKeepsTimesAndWritesItsOwnCheckpoints() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 7)
    let recording = try Recording(contentsOf: url)
    let output = directory.file("subset.actionlog")
    let summary = try recording.export(
      to: output,
      options: ExportOptions(
        subset: .init(
          actions: [1, 2, 3, 6, 7],
          checkpointStates: [1: Array(#"{"total":1}"#.utf8), 7: Array(#"{"total":7}"#.utf8)])))
    #expect(summary.actions == 5)
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map {
      $0.dropFirst(9)
    }
    // Action 3, fed back by 2, keeps its parent; 6, fed back by 5, which is left out, loses
    // its trigger.
    let expected: [String] = [
      #"{"kind":"action","seq":1,"source":"send","time":10000000,"#
        + #""uses":{"uuid":["00000000-0000-0000-0000-000000000001"]},"#
        + #""value":{"note":"","number":1}}"#,
      #"{"kind":"checkpoint","seq":1,"value":{"total":1}}"#,
      #"{"kind":"action","seq":2,"source":"send","time":20000000,"value":{"note":"","number":2}}"#,
      #"{"kind":"action","seq":3,"source":"effect","time":30000000,"trigger":2,"#
        + #""value":{"note":"","number":3}}"#,
      #"{"kind":"action","seq":4,"source":"effect","time":60000000,"value":{"note":"","#
        + #""number":6}}"#,
      #"{"kind":"action","seq":5,"source":"send","time":70000000,"value":{"note":"","number":7}}"#,
      #"{"kind":"checkpoint","seq":5,"value":{"total":7}}"#,
      #"{"kind":"end","seq":5,"time":75000000}"#,
    ]
    #expect(lines.dropFirst().map(String.init) == expected)
    #expect(lines.first?.contains(#""initialState":{"total":0}"#) == true)
    let written = try Recording(contentsOf: output)
    #expect(written.checkpoints == [1, 5])
    #expect(written.origin(ofAction: 3) == .effect(parent: 2))

    // Steps out of order or out of the recording are refused, and nothing is written.
    for wrong in [[2, 1], [0, 1], [7, 8], [3, 3]] {
      let target = directory.file("wrong.actionlog")
      #expect(throws: ActionLogError.self) {
        try recording.export(to: target, options: ExportOptions(subset: .init(actions: wrong)))
      }
      #expect(!FileManager.default.fileExists(atPath: target.path))
    }
  }

  @Test func actionsLostToDamageBecomeNotesThatHoldTheirPlaces() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    var data = try writeLog(to: url, count: 5)
    let offsets = lineOffsets(data)
    // Flip a bit in the payload of action 3 (line 4: header, 1, 2, checkpoint 2, 3).
    data[offsets[4] + 20] ^= 0x01
    try data.write(to: url)
    let recording = try Recording(contentsOf: url, recovery: .skipDamagedRecords)
    let output = directory.file("out.actionlog")
    let summary = try recording.export(to: output)
    #expect(summary.actions == 5)
    let exported = try Recording(contentsOf: output)
    #expect(exported.ending == .clean)
    #expect(exported.count == 5)
    #expect(try exported.action(4, as: Step.self).action == Step(number: 4))
    #expect(
      throws: ActionLogError.actionNotRecorded(
        seq: 3, note: "it was in a damaged record that was skipped")
    ) {
      try exported.action(3, as: Step.self)
    }
  }

  @Test func moreRedactionNumbersAfterThePlaceholdersAlreadyThere() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    var header = makeHeader()
    header.redactions = try Redactions(actions: ["note"])
    let writer = try LogWriter(url: url, header: header, initialState: Tally(total: 0))
    writer.append(
      .action(
        seq: 1, time: .zero, origin: .send, value: Step(number: 41, note: "secret"),
        captured: CapturedValues()))
    writer.append(.checkpoint(seq: 1, state: Tally(total: 41)))
    try writer.close()
    let output = directory.file("out.actionlog")
    let summary = try Recording(contentsOf: url).export(
      to: output,
      options: ExportOptions(
        redactions: try Redactions(state: ["total", "missing"], actions: ["number"]))
    )
    #expect(summary.redactedValues == 3)
    #expect(summary.unmatched.state.map(\.description) == ["missing"])
    let exported = try Recording(contentsOf: output)
    #expect(
      exported.header.redactions
        == (try Redactions(state: ["total", "missing"], actions: ["note", "number"])))
    #expect(try exported.action(1, as: Step.self).action == Step(number: 3, note: "‹redacted 1›"))
    #expect(try exported.initialState(as: Tally.self) == Tally(total: 2))
    #expect(try exported.checkpoint(after: 1, as: Tally.self) == Tally(total: 3))
  }

  @Test func anExistingFileIsNeverReplaced() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 2)
    let output = directory.file("out.actionlog")
    try Data("keep".utf8).write(to: output)
    #expect(throws: ActionLogError.fileExists(path: output.path)) {
      try Recording(contentsOf: url).export(to: output)
    }
    #expect(try String(contentsOf: output, encoding: .utf8) == "keep")
  }
}
