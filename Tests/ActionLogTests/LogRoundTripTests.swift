@_spi(Internals) import ActionLog
import Foundation
import TestSupport
import Testing

@Suite struct LogRoundTripTests {
  @Test func crc32cMatchesKnownVectors() {
    #expect(crc32c([]) == 0)
    #expect(crc32c(Array("123456789".utf8)) == 0xE306_9283)
    #expect(crc32c([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(crc32c([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(crc32c(Array(0...31)) == 0x46DD_794E)
  }

  @Test func writesAndReadsEveryRecordKind() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 5)
    let recording = try Recording(contentsOf: url)

    #expect(recording.header == makeHeader())
    #expect(recording.ending == .clean)
    #expect(recording.count == 5)
    #expect(recording.checkpoints == [2, 4])
    #expect(recording.duration == .milliseconds(55))
    #expect(recording.warnings.isEmpty)
    #expect(recording.skippedRecords.isEmpty)
    #expect(try recording.initialState(as: Tally.self) == Tally(total: 0))
    #expect(try recording.checkpoint(after: 4, as: Tally.self) == Tally(total: 10))
    #expect(recording.checkpoint(atOrBefore: 1) == 0)
    #expect(recording.checkpoint(atOrBefore: 3) == 2)
    #expect(recording.checkpoint(atOrBefore: 5) == 4)

    let first = try recording.action(1, as: Step.self)
    #expect(first.action == Step(number: 1))
    #expect(first.time == .milliseconds(10))
    #expect(first.origin == .send)
    #expect(first.captured == CapturedValues(["uuid": ["00000000-0000-0000-0000-000000000001"]]))
    let third = try recording.action(3, as: Step.self)
    #expect(third.origin == .effect(parent: 2))
    #expect(recording.origin(ofAction: 3) == .effect(parent: 2))
    #expect(recording.time(ofAction: 5) == .milliseconds(50))
    #expect(recording.action(atTime: .milliseconds(25)) == 2)
    #expect(recording.action(atTime: .milliseconds(5)) == 0)
    #expect(try recording.actionJSON(2) == #"{"note":"","number":2}"#)
  }

  @Test func anActionsValueBytesAreItsJSONAsWritten() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 5)
    let recording = try Recording(contentsOf: url)
    for seq in 1...5 {
      let bytes = try recording.actionValueBytes(seq)
      #expect(String(decoding: bytes, as: UTF8.self) == (try recording.actionJSON(seq)))
    }
    #expect(try recording.actionValueBytes(2) != recording.actionValueBytes(4))
    #expect(throws: ActionLogError.noSuchAction(seq: 6, count: 5)) {
      try recording.actionValueBytes(6)
    }
  }

  @Test func linesAreChecksummedKeySortedJSON() throws {
    let directory = TemporaryDirectory()
    let data = try writeLog(to: directory.file(), count: 3)
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    let header: String =
      #"{"actionType":"Step","checkpointInterval":2,"feature":"tally","format":1,"#
      + #""initialState":{"total":0},"kind":"header","metadata":{"app":"tests"},"#
      + #""startedAt":"2025-11-22T02:53:20.000Z","stateType":"Tally"}"#
    let first: String =
      #"{"kind":"action","seq":1,"source":"send","time":10000000,"#
      + #""uses":{"uuid":["00000000-0000-0000-0000-000000000001"]},"value":{"note":"","number":1}}"#
    let third: String =
      #"{"kind":"action","seq":3,"source":"effect","time":30000000,"trigger":2,"#
      + #""value":{"note":"","number":3}}"#
    let expected: [String] = [
      header,
      first,
      #"{"kind":"action","seq":2,"source":"send","time":20000000,"value":{"note":"","number":2}}"#,
      #"{"kind":"checkpoint","seq":2,"value":{"total":3}}"#,
      third,
      #"{"kind":"end","seq":3,"time":35000000}"#,
    ]
    #expect(lines.map { String($0.dropFirst(9)) } == expected)
    for line in lines {
      let payload = Array(line.dropFirst(9).utf8)
      let written = String(line.prefix(8))
      #expect(written == String(format: "%08x", crc32c(payload)))
    }
  }

  @Test func writerNeverOverwritesAFile() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = try writeLog(to: url, count: 1)
    #expect(throws: ActionLogError.fileExists(path: url.path)) {
      try LogWriter(url: url, header: makeHeader(), initialState: Tally(total: 0))
    }
  }

  @Test func unencodableActionBecomesANote() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let failures = LockedList()
    let writer = try LogWriter(
      url: url,
      header: makeHeader(),
      initialState: Tally(total: 0),
      options: LogWriter.Options(onEncodingFailure: { failures.append($0) })
    )
    struct Measure: Codable, Sendable { var value: Double }
    writer.append(
      .action(seq: 1, time: .zero, origin: .send, value: Step(number: 1), captured: .init()))
    writer.append(
      .action(seq: 2, time: .zero, origin: .send, value: Measure(value: .nan), captured: .init()))
    writer.append(
      .action(seq: 3, time: .zero, origin: .send, value: Step(number: 3), captured: .init()))
    try writer.close()

    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 3)
    #expect(recording.ending == .clean)
    #expect(try recording.action(3, as: Step.self).action == Step(number: 3))
    #expect(failures.values.count == 1)
    #expect(failures.values.first?.hasPrefix("action 2 could not be encoded: ") == true)
    #expect(throws: ActionLogError.actionNotRecorded(seq: 2, note: failures.values.first ?? "")) {
      try recording.action(2, as: Step.self)
    }
    #expect(recording.warnings == [.note(seq: 2, text: failures.values.first ?? "")])
  }

  /// The compact codec encodes each record straight into the writer's buffer and frames it in
  /// place; Foundation's encodes into an array of its own: the files are the same, byte for
  /// byte, a record that cannot be encoded included.
  @Test func theStreamingCodecWritesWhatFoundationWrites() throws {
    struct Measure: Codable, Sendable { var value: Double }
    enum Shape: Codable, Sendable { case dot, box(width: Int, label: String?) }
    let directory = TemporaryDirectory()
    func write(_ codec: any RecordCodec) throws -> Data {
      let url = directory.file("\(type(of: codec)).actionlog")
      let writer = try LogWriter(
        url: url, header: makeHeader(), initialState: Tally(total: 0),
        options: LogWriter.Options(syncPolicy: .never, batchSize: 3, codec: codec))
      let values: [any Encodable & Sendable] = [
        Step(number: 1, note: "quote \" and é"), Measure(value: .nan), Shape.dot,
        Shape.box(width: -3, label: nil), ["z": 1, "a": 2], Measure(value: -0.0),
      ]
      for (index, value) in values.enumerated() {
        writer.append(
          .action(
            seq: index + 1, time: .milliseconds(index), origin: .send, value: value,
            captured: index == 0 ? CapturedValues(["uuid": ["u"]]) : CapturedValues()))
        writer.append(.checkpoint(seq: index + 1, state: Tally(total: index)))
      }
      try writer.close()
      // Every line's checksum holds: nothing is skipped, and only action 2 was left out.
      let recording = try Recording(contentsOf: url)
      #expect(recording.count == values.count && recording.checkpoints.count == values.count)
      #expect(recording.skippedRecords.isEmpty && recording.ending == .clean)
      #expect(recording.warnings.count == 1)
      return try Data(contentsOf: url)
    }
    let ours = try write(CompactJSONCodec())
    let foundation = try write(FoundationJSONCodec())
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    #expect(ours.count > 600)
  }

  @Test func flushMakesRecordsVisibleBeforeClose() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let writer = try LogWriter(
      url: url, header: makeHeader(), initialState: Tally(total: 0),
      options: LogWriter.Options(flushInterval: .seconds(60))
    )
    writer.append(
      .action(seq: 1, time: .zero, origin: .send, value: Step(number: 1), captured: .init()))
    try writer.flush()
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 1)
    #expect(recording.ending == .unterminated)
    try writer.close()
    #expect(try Recording(contentsOf: url).ending == .clean)
  }

  @Test func backPressureBlocksInsteadOfDropping() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let writer = try LogWriter(
      url: url, header: makeHeader(), initialState: Tally(total: 0),
      options: LogWriter.Options(batchSize: 4, maximumPendingRecords: 8)
    )
    for seq in 1...5_000 {
      writer.append(
        .action(seq: seq, time: .zero, origin: .send, value: Step(number: seq), captured: .init()))
    }
    try writer.close()
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 5_000)
    #expect(try recording.action(5_000, as: Step.self).action == Step(number: 5_000))
  }
}

/// A list that several threads append to.
final class LockedList: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []

  func append(_ value: String) {
    self.lock.lock()
    self.storage.append(value)
    self.lock.unlock()
  }

  var values: [String] {
    self.lock.lock()
    defer { self.lock.unlock() }
    return self.storage
  }
}

@Suite struct DurationTextTests {
  @Test func timesShowInSecondsWithMilliseconds() {
    #expect(Duration.zero.secondsText == "0.000s")
    #expect(Duration.milliseconds(48_650).secondsText == "48.650s")
    #expect(Duration.nanoseconds(1_999_999).secondsText == "0.001s")
    #expect(Duration.milliseconds(-5).secondsText == "-0.005s")
  }

  @Test func anyTimeAFileClaimsFormatsWithoutTrapping() {
    #expect(Duration.nanoseconds(Int64.min).secondsText == "-9223372036.854s")
    #expect(Duration.nanoseconds(Int64.max).secondsText == "9223372036.854s")
    #expect(Duration.seconds(Int64.max).nanoseconds == .max)
    #expect(Duration.seconds(Int64.min).nanoseconds == .min)
  }
}
