import ActionLog
import Foundation
import TestSupport
import Testing

/// Damage done on purpose, one class per test, each with its exact outcome: which records are
/// kept, what is reported, and where.
@Suite struct LogCorruptionTests {
  /// A clean five-action log: lines are the header, actions 1–2, checkpoint 2, actions 3–4,
  /// checkpoint 4, action 5, end.
  private func cleanLog() throws -> (TemporaryDirectory, Data, [Int]) {
    let directory = TemporaryDirectory()
    let data = try writeLog(to: directory.file("clean.actionlog"), count: 5)
    return (directory, data, lineOffsets(data))
  }

  /// Opens bytes as a recording.
  private func open(_ data: Data, recovery: RecoveryMode = .stopAtFirstDamage) throws -> Recording {
    try Recording(data: data, recovery: recovery)
  }

  /// An unterminated five-action log (no end record): lines are the header, actions 1–2,
  /// checkpoint 2, actions 3–4, checkpoint 4, action 5.
  private func unterminatedLog() throws -> (TemporaryDirectory, Data, [Int]) {
    let directory = TemporaryDirectory()
    let data = try writeLog(to: directory.file("open.actionlog"), count: 5, close: false)
    return (directory, data, lineOffsets(data))
  }

  @Test func truncatedTrailingRecord() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    let lastLine = offsets[7]
    let cut = data.prefix(lastLine + (data.count - lastLine) / 2)
    let recording = try self.open(cut)
    #expect(recording.count == 4)
    #expect(recording.ending == .tornTail(offset: lastLine, length: cut.count - lastLine))
    #expect(try recording.action(4, as: Step.self).action == Step(number: 4))
  }

  @Test func partialLastLine() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    let cut = data.prefix(offsets[7] + 3)
    let recording = try self.open(cut)
    #expect(recording.count == 4)
    #expect(recording.checkpoints == [2, 4])
    #expect(recording.ending == .tornTail(offset: offsets[7], length: 3))
  }

  @Test func missingNewline() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    let cut = data.dropLast()
    let recording = try self.open(cut)
    // A last line without its newline is not a record, even when the rest of it is whole.
    #expect(recording.count == 4)
    #expect(recording.ending == .tornTail(offset: offsets[7], length: cut.count - offsets[7]))
  }

  @Test func flippedBitInPayload() throws {
    let (_, data, offsets) = try self.cleanLog()
    var damaged = data
    damaged[offsets[2] + 40] ^= 0x04  // inside action 2's payload
    let recording = try self.open(damaged)
    #expect(recording.count == 1)
    guard case let .damaged(problem) = recording.ending,
      case .checksumMismatch = problem.kind
    else {
      Issue.record("expected a checksum mismatch, got \(recording.ending)")
      return
    }
    #expect(problem.record == 3)
    #expect(problem.offset == offsets[2])

    let skipping = try self.open(damaged, recovery: .skipDamagedRecords)
    #expect(skipping.count == 5)
    #expect(skipping.ending == .clean)
    #expect(skipping.skippedRecords.map(\.record) == [3, 4])
    #expect(skipping.skippedRecords.last?.kind == .lostActions(2...2))
    #expect(skipping.checkpoints == [2, 4])
    #expect(try skipping.checkpoint(after: 2, as: Tally.self) == Tally(total: 3))
    #expect(
      throws: ActionLogError.actionNotRecorded(
        seq: 2, note: "it was in a damaged record that was skipped")
    ) {
      try skipping.action(2, as: Step.self)
    }
    #expect(try skipping.action(3, as: Step.self).action == Step(number: 3))
  }

  @Test func flippedBitInChecksum() throws {
    let (_, data, offsets) = try self.cleanLog()
    var damaged = data
    let position = offsets[3] + 7
    let original = damaged[position]
    damaged[position] = original == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
    let recording = try self.open(damaged)
    #expect(recording.count == 2)
    #expect(recording.checkpoints == [])
    guard case let .damaged(problem) = recording.ending,
      case let .checksumMismatch(written, computed) = problem.kind
    else {
      Issue.record("expected a checksum mismatch, got \(recording.ending)")
      return
    }
    #expect(problem.record == 4)
    #expect(problem.offset == offsets[3])
    #expect(written != computed)
    #expect(written ^ computed < 16)
  }

  @Test func malformedChecksumDigits() throws {
    let (_, data, offsets) = try self.cleanLog()
    var damaged = data
    damaged[offsets[1]] = UInt8(ascii: "X")
    let recording = try self.open(damaged)
    #expect(recording.count == 0)
    #expect(
      recording.ending
        == .damaged(RecordProblem(record: 2, offset: offsets[1], kind: .malformedFrame)))
  }

  @Test func badJSON() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    // A whole record with a valid checksum whose payload is not JSON.
    var damaged = data.prefix(offsets[3])
    damaged += framedLine(#"{"kind":"action","seq":3,"source":"send" oops"#)
    damaged += data[offsets[3]...]
    let recording = try self.open(damaged)
    #expect(recording.count == 2)
    guard case let .damaged(problem) = recording.ending,
      case let .unreadablePayload(reason) = problem.kind
    else {
      Issue.record("expected an unreadable payload, got \(recording.ending)")
      return
    }
    #expect(problem.record == 4)
    #expect(problem.offset == offsets[3])
    // Where in the payload, and what was expected there.
    #expect(reason == #"The given data was not valid JSON: expected "," or "}" (at byte 41)."#)
  }

  @Test func badJSONInTheValueIsReportedWhenDecoded() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    var damaged = data.prefix(offsets[3])
    damaged += framedLine(
      #"{"kind":"action","seq":3,"source":"send","time":30,"value":{"number":[}}"#)
    let recording = try self.open(damaged)
    #expect(recording.count == 3)
    #expect(recording.ending == .unterminated)
    do {
      _ = try recording.action(3, as: Step.self)
      Issue.record("decoding a malformed value must throw")
    } catch let error as ActionLogError {
      guard case let .undecodable(record, offset, _, _) = error else {
        Issue.record("expected undecodable, got \(error)")
        return
      }
      #expect(record == 4)
      #expect(offset == offsets[3])
    }
  }

  @Test func undecodableValueNamesTheCodingPath() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    var damaged = data.prefix(offsets[3])
    damaged += framedLine(
      #"{"kind":"action","seq":3,"source":"send","time":30,"value":{"note":"","number":"three"}}"#)
    let recording = try self.open(damaged)
    // Named as a change of the types, in words of this package, with the step that would
    // read the record: none of Foundation's wording.
    #expect(
      throws: ActionLogError.typesChanged(
        record: 4, offset: offsets[3], value: "action 3", codingPath: "value.number",
        change:
          #"ActionLogTests.Step expects Swift.Int there, and the record has the string "three""#,
        step: #".custom("…", of: .actions) { value in … }"#)
    ) {
      try recording.action(3, as: Step.self)
    }
  }

  @Test func unknownRecordKind() throws {
    let (_, data, offsets) = try self.cleanLog()
    var extended = data.prefix(offsets[3])
    extended += framedLine(#"{"kind":"bookmark","seq":2,"text":"here"}"#)
    extended += data[offsets[3]...]
    let recording = try self.open(extended)
    #expect(recording.count == 5)
    #expect(recording.ending == .clean)
    #expect(recording.warnings == [.unknownKind("bookmark", record: 4, offset: offsets[3])])
  }

  @Test func newerFormatVersion() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let writer = try LogWriter(
      url: url, header: makeHeader(format: 2), initialState: Tally(total: 0))
    try writer.close()
    #expect(throws: ActionLogError.unsupportedVersion(path: url.path, found: 2, supported: 1)) {
      try Recording(contentsOf: url)
    }
  }

  @Test func sequenceGap() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    // Drop action 3 (line 5): action 4 follows action 2.
    let gapped = data.prefix(offsets[4]) + data[offsets[5]...]
    let recording = try self.open(gapped)
    #expect(recording.count == 2)
    #expect(
      recording.ending
        == .damaged(
          RecordProblem(record: 5, offset: offsets[4], kind: .sequenceGap(expected: 3, found: 4)))
    )
  }

  @Test func lineOfOneGibibyteClaimed() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let data = try writeLog(to: url, count: 0, close: false)
    // A sparse gibibyte with no newline: a line far longer than any record may be.
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: UInt64(data.count) + (1 << 30))
    try handle.close()

    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 0)
    #expect(
      recording.ending
        == .damaged(RecordProblem(record: 2, offset: data.count, kind: .tooLong(limit: 64 << 20))))
  }

  @Test func recordLongerThanACustomLimit() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    let note = String(repeating: "x", count: 2_000)
    // Action 3 (line 5) replaced by one with a long note.
    var long = data.prefix(offsets[4])
    long += framedLine(
      #"{"kind":"action","seq":3,"source":"send","time":30,"value":{"note":""# + note
        + #"","number":3}}"#)
    long += data[offsets[5]...]
    let recording = try Recording(data: long, limits: ReadLimits(maximumRecordLength: 1_000))
    #expect(recording.count == 2)
    #expect(
      recording.ending
        == .damaged(RecordProblem(record: 5, offset: offsets[4], kind: .tooLong(limit: 1_000))))
    let raised = try Recording(data: long, limits: ReadLimits(maximumRecordLength: 4_000))
    #expect(raised.count == 5)
    #expect(try raised.action(3, as: Step.self).action == Step(number: 3, note: note))
  }

  @Test func garbageAppendedAfterTheEnd() throws {
    let (_, data, offsets) = try self.cleanLog()
    let recording = try self.open(data + Data("garbage\n".utf8))
    #expect(recording.count == 5)
    #expect(recording.ending == .clean)
    #expect(recording.warnings == [.dataAfterEnd(offset: data.count)])
    _ = offsets
  }

  @Test func garbageAppendedToAnUnterminatedLog() throws {
    let (_, data, _) = try self.unterminatedLog()
    let withLine = try self.open(data + Data("garbage\n".utf8))
    #expect(withLine.count == 5)
    #expect(
      withLine.ending
        == .damaged(RecordProblem(record: 9, offset: data.count, kind: .malformedFrame)))
    let withoutNewline = try self.open(data + Data("garbage".utf8))
    #expect(withoutNewline.count == 5)
    #expect(withoutNewline.ending == .tornTail(offset: data.count, length: 7))
  }

  @Test func emptyFile() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    _ = FileManager.default.createFile(atPath: url.path, contents: Data())
    #expect(throws: ActionLogError.empty(path: url.path)) {
      try Recording(contentsOf: url)
    }
  }

  @Test func missingFile() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("absent.actionlog")
    #expect(throws: ActionLogError.unreadable(path: url.path, reason: "no such file")) {
      try Recording(contentsOf: url)
    }
  }

  @Test func headerOnly() throws {
    let directory = TemporaryDirectory()
    let data = try writeLog(to: directory.file(), count: 0, close: false)
    let recording = try self.open(data)
    #expect(recording.count == 0)
    #expect(recording.ending == .unterminated)
    #expect(recording.duration == .zero)
    #expect(try recording.initialState(as: Tally.self) == Tally(total: 0))
    #expect(throws: ActionLogError.noSuchAction(seq: 1, count: 0)) {
      try recording.action(1, as: Step.self)
    }
  }

  @Test func notALog() throws {
    #expect(
      throws: ActionLogError.missingHeader(
        path: "the recording", reason: "it does not start with an 8-digit checksum and a space")
    ) {
      try Recording(data: Data("hello, world\n".utf8))
    }
  }

  @Test func deeplyNestedJSONIsRefused() throws {
    let (_, data, offsets) = try self.unterminatedLog()
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    var damaged = data.prefix(offsets[3])
    damaged += framedLine(
      #"{"kind":"action","seq":3,"source":"send","time":30,"value":"# + deep + "}")
    let recording = try self.open(damaged)
    #expect(recording.count == 3)
    #expect(throws: ActionLogError.tooDeep(record: 4, offset: offsets[3], limit: 256)) {
      try recording.action(3, as: Step.self)
    }
  }

  /// Every way of cutting a log short: the reader keeps exactly the whole action records before
  /// the cut.
  @Test func everyTruncationKeepsEveryWholeRecordBeforeIt() async throws {
    let (_, data, offsets) = try self.cleanLog()
    // Line index of each action n.
    let actionLines = [1: 1, 2: 2, 3: 4, 4: 5, 5: 7]
    for length in offsets[1]..<data.count {
      // NB: Yield now and then, so this long loop does not starve other tests' effects.
      if length.isMultiple(of: 64) { await Task.yield() }
      let recording = try self.open(data.prefix(length))
      let whole = actionLines.filter { _, line in
        let end = line + 1 < offsets.count ? offsets[line + 1] : data.count
        return end <= length
      }.count
      #expect(recording.count == whole, "cut at \(length)")
      for seq in stride(from: 1, through: whole, by: 1) {
        #expect(try recording.action(seq, as: Step.self).action.number == seq)
      }
    }
  }

  /// A bit flip in every byte of every record after the header (a different bit from one byte to
  /// the next): the reader never crashes and keeps every action before the damaged line.
  @Test func everyBitFlipKeepsEveryRecordBeforeTheDamage() async throws {
    let (_, data, offsets) = try self.cleanLog()
    let lineOf: (Int) -> Int = { position in offsets.lastIndex { $0 <= position } ?? 0 }
    let actionsBefore = [0, 0, 1, 2, 2, 3, 4, 4, 5]
    for position in offsets[1]..<data.count {
      if position.isMultiple(of: 64) { await Task.yield() }
      var damaged = data
      damaged[position] ^= UInt8(1 << (position % 8))
      let recording = try self.open(damaged)
      #expect(recording.count >= actionsBefore[lineOf(position)], "flip at \(position)")
      if case .damaged(let problem) = recording.ending {
        #expect(problem.offset == offsets[lineOf(position)], "flip at \(position)")
      }
    }
  }
}
