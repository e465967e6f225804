@_spi(Internals) import ActionLog
import Foundation
import TestSupport
import Testing

/// Shared records: written and read back, placed after the action they follow, carried by
/// exports and joins to where they still apply.
@Suite struct SharedRecordTests {
  /// Six actions; the places at the start and after each checkpoint, a change from outside after
  /// action 1 and one from the app after action 3.
  func writeSharedLog(to url: URL) throws {
    let writer = try LogWriter(
      url: url, header: makeHeader(), initialState: Tally(total: 0),
      options: LogWriter.Options(syncPolicy: .never))
    writer.append(.shared(seq: 0, .places(["#1": ["/total"]])))
    for seq in 1...6 {
      writer.append(
        .action(
          seq: seq, time: .milliseconds(10 * seq), origin: .send, value: Step(number: seq),
          captured: CapturedValues()))
      if seq % 2 == 0 {
        writer.append(.checkpoint(seq: seq, state: Tally(total: seq)))
        writer.append(.shared(seq: seq, .places(["#1": ["/total"]])))
      }
      if seq == 1 { writer.append(.shared(seq: 1, .value(name: "#1", source: .outside, value: 7))) }
      if seq == 3 {
        writer.append(.shared(seq: 3, .value(name: "#1", source: .app, value: Tally(total: 9))))
      }
    }
    try writer.close(at: .milliseconds(70))
  }

  @Test func sharedRecordsReadBackInOrder() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.writeSharedLog(to: url)
    let recording = try Recording(contentsOf: url)
    #expect(recording.ending == .clean)
    #expect(recording.warnings.isEmpty)
    let records = try recording.sharedRecords()
    #expect(records.map(\.seq) == [0, 1, 2, 3, 4, 6])
    #expect(records[1].change == .value(name: "#1", source: .outside, value: .integer(7)))
    #expect(
      records[3].change
        == .value(name: "#1", source: .app, value: .object(["total": .integer(9)])))
    #expect(try recording.sharedPlaces(after: 4) == ["#1": ["/total"]])
    #expect(try recording.sharedPlaces(after: 3) == nil)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(
      text.contains(##"{"kind":"shared","seq":1,"shared":"#1","source":"outside","value":7}"##))
  }

  @Test func aRecordingWithoutSharedRecordsHasNone() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 3)
    let recording = try Recording(contentsOf: url)
    #expect(!recording.hasSharedRecords)
    #expect(try recording.sharedRecords().isEmpty)
  }

  @Test func aSharedRecordAheadOfItsActionIsDamageWithItsPlace() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 2, close: false)
    var data = try Data(contentsOf: url)
    data.append(framedLine(#"{"kind":"shared","seq":5,"where":{}}"#))
    try data.write(to: url)
    let recording = try Recording(contentsOf: url)
    guard case let .damaged(problem) = recording.ending else {
      Issue.record("expected damage, got \(recording.ending)")
      return
    }
    #expect("\(problem)".contains("a shared record after action 5"))
    #expect(recording.count == 2)
  }

  @Test func aSharedRecordWithAnUnknownSourceSaysWhereItIs() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 1, close: false)
    var data = try Data(contentsOf: url)
    data.append(framedLine(##"{"kind":"shared","seq":1,"shared":"#1","source":"moon","value":1}"##))
    try data.write(to: url)
    let recording = try Recording(contentsOf: url)
    #expect(recording.hasSharedRecords)
    let error = #expect(throws: ActionLogError.self) { try recording.sharedRecords() }
    #expect("\(error!)".contains("record 3 (byte"))
  }

  @Test func aCutKeepsThePlacesItStartsFromAndTheChangesAfterIt() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.writeSharedLog(to: url)
    let recording = try Recording(contentsOf: url)
    let output = directory.file("cut.actionlog")
    _ = try recording.export(to: output, options: ExportOptions(cut: .init(after: 2)))
    let cut = try Recording(contentsOf: output)
    let records = try cut.sharedRecords()
    #expect(records.map(\.seq) == [0, 1, 2, 4])
    #expect(records[0].change == .places(["#1": ["/total"]]))
    #expect(
      records[1].change
        == .value(name: "#1", source: .app, value: .object(["total": .integer(9)])))
  }

  @Test func aSubsetKeepsAChangeBeforeTheNextKeptAction() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.writeSharedLog(to: url)
    let recording = try Recording(contentsOf: url)
    let output = directory.file("subset.actionlog")
    _ = try recording.export(
      to: output, options: ExportOptions(subset: .init(actions: [2, 5])))
    let subset = try Recording(contentsOf: output)
    let values = try subset.sharedRecords().filter {
      if case .value = $0.change { true } else { false }
    }
    // After action 1 (left out): before action 2, now the first; after action 3 (left out):
    // before action 5, now the second.
    #expect(values.map(\.seq) == [0, 1])
  }

  @Test func moreRedactionHidesSharedValues() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    try self.writeSharedLog(to: url)
    let recording = try Recording(contentsOf: url)
    let output = directory.file("redacted.actionlog")
    _ = try recording.export(
      to: output, options: ExportOptions(redactions: try Redactions(state: ["total"])))
    let text = try String(contentsOf: output, encoding: .utf8)
    #expect(!text.contains(#""value":7"#))
    #expect(text.contains("‹redacted shared value›"))
    #expect(try Recording(contentsOf: output).sharedRecords().count == 6)
  }
}
