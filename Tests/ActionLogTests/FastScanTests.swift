@testable import ActionLog
import ActionLogScan
import Foundation
import TestSupport
import Testing

/// The fast scan, split across cores, indexes a recording exactly as the sequential scanner does;
/// on anything it does not handle, it leaves the file to the sequential scanner.
@Suite struct FastScanTests {
  static let recordings = recordingsFolder

  enum Variant: String, CaseIterable, Sendable {
    case clean, unterminated, tornTail, note, damaged, gap, endThenTorn, checkpointFirst, sites
  }

  /// Two site records, before the first action and between two later ones, as a recorder
  /// writes them.
  static func insertingSites(into data: inout Data, offsets: [Int]) {
    data.insert(
      contentsOf: framedLine(#"{"kind":"site","site":2,"where":"App/Row.swift:30"}"#),
      at: offsets[200])
    data.insert(
      contentsOf: framedLine(#"{"kind":"site","site":1,"where":"App/View.swift:12"}"#),
      at: offsets[1])
  }

  @Test(arguments: Variant.allCases)
  func agreesWithTheSequentialScan(_ variant: Variant) throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    var data = try writeLog(
      to: url, count: 301, close: variant != .unterminated && variant != .tornTail)
    let offsets = lineOffsets(data)
    switch variant {
    case .clean, .unterminated:
      break
    case .tornTail:
      data.append(Data(#"1234abcd {"kind":"action","seq":302"#.utf8))
    case .note:
      data.insert(
        contentsOf: framedLine(#"{"kind":"note","seq":150,"text":"hello"}"#), at: offsets[200])
    case .damaged:
      data[offsets[200] + 30] ^= 0x01
    case .gap:
      data.removeSubrange(offsets[200]..<offsets[201])
    case .endThenTorn:
      data.append(Data("0000".utf8))
    case .checkpointFirst:
      // A checkpoint of an action not yet read.
      data.insert(
        contentsOf: framedLine(#"{"kind":"checkpoint","seq":999,"value":{"total":0}}"#),
        at: offsets[1])
    case .sites:
      Self.insertingSites(into: &data, offsets: offsets)
    }
    try self.expectAgreement(data)
  }

  /// The fast scan takes what a recorder writes when nothing went wrong, and leaves the rest to
  /// the sequential scanner: checked on its own, since the two agreeing would not show that it
  /// ran.
  @Test(arguments: Variant.allCases)
  func takesHealthyRecordingsOnly(_ variant: Variant) throws {
    let directory = TemporaryDirectory()
    var data = try writeLog(
      to: directory.file(), count: 301, close: variant != .unterminated && variant != .tornTail
    )
    let offsets = lineOffsets(data)
    switch variant {
    case .clean, .unterminated: break
    case .tornTail: data.append(Data(#"1234abcd {"kind":"action","seq":302"#.utf8))
    case .note:
      data.insert(
        contentsOf: framedLine(#"{"kind":"note","seq":150,"text":"hello"}"#), at: offsets[200])
    case .damaged: data[offsets[200] + 30] ^= 0x01
    case .gap: data.removeSubrange(offsets[200]..<offsets[201])
    case .endThenTorn: data.append(Data("0000".utf8))
    case .checkpointFirst:
      data.insert(
        contentsOf: framedLine(#"{"kind":"checkpoint","seq":999,"value":{"total":0}}"#),
        at: offsets[1])
    case .sites: Self.insertingSites(into: &data, offsets: offsets)
    }
    let healthy: Set<Variant> = [.clean, .unterminated, .tornTail, .sites]
    // The actions before the second site record: those among the lines it was put before.
    let original = try Data(contentsOf: directory.file())
    let actionsBefore200 = (1..<200).filter {
      original[(offsets[$0] + 9)...].starts(with: Data(#"{"kind":"action""#.utf8))
    }.count
    for threshold in [1, Int.max] {
      let result = data.withUnsafeBytes {
        FastScan.scan($0, from: offsets[1], maximumLineLength: 1 << 20, parallelFrom: threshold)
      }
      #expect(
        (result != nil) == healthy.contains(variant), "\(variant), parallel from \(threshold)")
      if let result {
        #expect(result.actions.count == 301)
        #expect(result.sites.map(\.after) == (variant == .sites ? [0, actionsBefore200] : []))
      }
    }
  }

  /// Each action's seq is compared with the expected one as text: across every change in the
  /// number of digits, split anywhere across chunks.
  @Test func followsTheSequenceAcrossDigitCounts() throws {
    let directory = TemporaryDirectory()
    let data = try writeLog(to: directory.file(), count: 1_001)
    let offsets = lineOffsets(data)
    let lines = data.split(separator: UInt8(ascii: "\n")).map {
      String(decoding: $0, as: UTF8.self)
    }
    // Records are numbered from 1, the header.
    let actionRecords = lines.indices.filter { lines[$0].contains(#""kind":"action""#) }.map {
      $0 + 1
    }
    #expect(actionRecords.count == 1_001)
    for threshold in [1, 4_096, Int.max] {
      let result = try #require(
        data.withUnsafeBytes {
          FastScan.scan($0, from: offsets[1], maximumLineLength: 1 << 20, parallelFrom: threshold)
        }
      )
      #expect(
        (0..<result.actions.count).map { result.actions.record(at: $0) } == actionRecords,
        "parallel from \(threshold)"
      )
    }
    // An action whose seq has one digit too many, one too few, or another of as many, stops it.
    for (seq, text) in [(10, "100"), (100, "10"), (999, "9999"), (150, "105"), (7, "8")] {
      let index = try #require(lines.firstIndex { $0.contains(#""kind":"action","seq":\#(seq),"#) })
      let payload = String(lines[index].dropFirst(Framing.prefixLength))
        .replacingOccurrences(of: #""seq":\#(seq),"#, with: #""seq":\#(text),"#)
      var damaged = data
      damaged.replaceSubrange(offsets[index]..<offsets[index + 1], with: framedLine(payload))
      let result = damaged.withUnsafeBytes {
        FastScan.scan($0, from: offsets[1], maximumLineLength: 1 << 20, parallelFrom: .max)
      }
      #expect(result == nil, "seq \(seq) written as \(text)")
    }
  }

  /// A long action's line is indexed alike by both scans, and decodes whole.
  @Test func indexesLongActions() throws {
    let directory = TemporaryDirectory()
    var data = try writeLog(to: directory.file(), count: 301)
    let offsets = lineOffsets(data)
    let lines = data.split(separator: UInt8(ascii: "\n"))
      .map { String(decoding: $0, as: UTF8.self) }
    let index = try #require(lines.firstIndex { $0.contains(#""kind":"action","seq":150,"#) })
    let note = String(repeating: "x", count: 300_000)
    let payload = String(lines[index].dropFirst(Framing.prefixLength))
      .replacingOccurrences(of: #""note":"""#, with: #""note":"\#(note)""#)
    data.replaceSubrange(offsets[index]..<offsets[index + 1], with: framedLine(payload))
    try self.expectAgreement(data)
    for strategy in [FastScan.Strategy.parallel(from: 1), .sequential] {
      let recording = try Recording(data: data, strategy: strategy)
      #expect(try recording.action(150, as: Step.self).action == Step(number: 150, note: note))
      #expect(try recording.action(151, as: Step.self).action == Step(number: 151))
      #expect(recording.actionLine(at: 149).payloadLength == payload.utf8.count)
    }
  }

  /// The index keeps four bytes per action and derives the rest: it gives back each line it was
  /// given, across segments, with records between actions and stand-ins sharing a damaged
  /// record's number.
  @Test func theIndexGivesBackEachActionsLine() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20 {
      var index = ActionIndex(segmentLimit: 4_096)
      var bytes: [UInt8] = []
      var expected: [LineRange] = []
      var record = 1
      for position in 0..<500 {
        // Mostly the next record; now and then records between, or one shared with the last.
        record += [0, 1, 1, 1, 1, 2, 5].randomElement(using: &generator)!
        let line: LineRange
        if position > 0, record == expected.last!.record {
          line = .unrecorded(record: record, offset: expected.last!.offset)
        } else {
          let length = Int.random(in: 0..<300, using: &generator)
          line = LineRange(record: max(record, 2), offset: bytes.count, payloadLength: length)
          bytes += [UInt8](repeating: UInt8(ascii: "x"), count: Framing.prefixLength + length)
          bytes.append(UInt8(ascii: "\n"))
        }
        record = line.record
        index.append(line)
        expected.append(line)
      }
      let read = bytes.withUnsafeBytes { buffer in
        (0..<index.count).map { index.line(at: $0, in: buffer) }
      }
      #expect(read.map(\.record) == expected.map(\.record))
      #expect(read.map(\.offset) == expected.map(\.offset))
      #expect(read.map(\.payloadLength) == expected.map(\.payloadLength))
    }
  }

  @Test func agreesOnEveryBundledRecording() throws {
    let names = try FileManager.default.subpathsOfDirectory(atPath: Self.recordings.path)
      .filter { $0.hasSuffix(".actionlog") }
    #expect(names.count >= 6)
    for name in names {
      try self.expectAgreement(Data(contentsOf: Self.recordings.appendingPathComponent(name)), name)
    }
  }

  @Test func checksumsAndIntegersAreReadAsTheSimpleReaderReadsThem() {
    var generator = SystemRandomNumberGenerator()
    // Every checksum with one character changed to each byte value, against the byte-wise reader.
    for _ in 0..<64 {
      let value = UInt32.random(in: .min ... .max, using: &generator)
      let hex = String(value, radix: 16)
      var line = Array((String(repeating: "0", count: 8 - hex.count) + hex + " {}").utf8)
      #expect(line.withUnsafeBytes { Framing.parsePrefix($0) } == value)
      let position = Int.random(in: 0..<8, using: &generator)
      for byte in UInt8.min...UInt8.max {
        line[position] = byte
        // The byte-wise reading: eight lowercase hex digits.
        let digits = line.prefix(8)
        let expected =
          digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
          ? UInt32(String(decoding: digits, as: UTF8.self), radix: 16) : nil
        #expect(line.withUnsafeBytes { Framing.parsePrefix($0) } == expected)
      }
    }
    // Integers of every length, with the text around them that the scan meets.
    for digits in 1...19 {
      let number = String((0..<digits).map { _ in "0123456789".randomElement(using: &generator)! })
      for tail in [",", "}", ",\"time\":12345678901234}", "x", ""] {
        let text = Array((#"{"kind":"checkpoint","seq":"# + number + tail).utf8)
        let parsed = text.withUnsafeBufferPointer { buffer in
          RecordEnvelope(buffer.baseAddress!, count: buffer.count)?.seq
        }
        let valid = digits <= 18 && (tail.hasPrefix(",") || tail.hasPrefix("}"))
        #expect(parsed == (valid ? Int(number) : nil), "\(number)\(tail)")
      }
    }
  }

  private func expectAgreement(
    _ data: Data, _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for recovery in [RecoveryMode.stopAtFirstDamage, .skipDamagedRecords] {
      let fast = try Recording(data: data, recovery: recovery, strategy: .parallel(from: 1))
      let sequential = try Recording(data: data, recovery: recovery, strategy: .sequential)
      #expect(fast.count == sequential.count, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.ending == sequential.ending, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.warnings == sequential.warnings, "\(name)", sourceLocation: sourceLocation)
      #expect(
        fast.skippedRecords == sequential.skippedRecords, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.checkpoints == sequential.checkpoints, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.duration == sequential.duration, "\(name)", sourceLocation: sourceLocation)
      // Times and origins: read by the sequential scanner, and from the lines for the fast one.
      #expect(
        (0..<fast.count).map { fast.actionTime(at: $0) }
          == (0..<sequential.count).map { sequential.actionTime(at: $0) },
        "\(name)", sourceLocation: sourceLocation
      )
      #expect(
        (0..<fast.count).map { fast.actionTrigger(at: $0) }
          == (0..<sequential.count).map { sequential.actionTrigger(at: $0) },
        "\(name)", sourceLocation: sourceLocation
      )
      #expect(
        (0..<fast.count).map { fast.actionLine(at: $0) }
          .map { [$0.record, $0.offset, $0.payloadLength] }
          == (0..<sequential.count).map { sequential.actionLine(at: $0) }
          .map { [$0.record, $0.offset, $0.payloadLength] },
        "\(name)", sourceLocation: sourceLocation
      )
      #expect(
        fast.checkpointLines.mapValues { [$0.record, $0.offset, $0.payloadLength] }
          == sequential.checkpointLines.mapValues { [$0.record, $0.offset, $0.payloadLength] },
        "\(name)", sourceLocation: sourceLocation
      )
      #expect(
        fast.sites.lines.map { [$0.number, $0.line.record, $0.line.offset, $0.after] }
          == sequential.sites.lines.map { [$0.number, $0.line.record, $0.line.offset, $0.after] },
        "\(name)", sourceLocation: sourceLocation
      )
      #expect(
        fast.callSitesByNumber == sequential.callSitesByNumber, "\(name)",
        sourceLocation: sourceLocation)
      #expect(
        fast.sharedLines.map { [$0.seq, $0.line.record, $0.line.offset, $0.line.payloadLength] }
          == sequential.sharedLines.map {
            [$0.seq, $0.line.record, $0.line.offset, $0.line.payloadLength]
          },
        "\(name)", sourceLocation: sourceLocation)
    }
  }

  /// Shared records between actions, before the first and at the end, read alike by both scans
  /// however the file is split; one that does not follow the last action sends the file to the
  /// sequential scanner, which says where it is.
  @Test func indexesSharedRecords() throws {
    let directory = TemporaryDirectory()
    let data = try writeLog(to: directory.file(), count: 300)
    var lines = data.split(separator: UInt8(ascii: "\n")).map { Data($0) + Data([10]) }
    func shared(after seq: Int) -> Data {
      framedLine(
        #"{"kind":"shared","seq":\#(seq),"shared":".inMemory(\"n\")","source":"outside","value":\#(seq)}"#
      )
    }
    /// The line after action `seq`'s (after the header for 0).
    func after(_ seq: Int) -> Int {
      guard seq > 0 else { return 1 }
      let text = Array(#""kind":"action","seq":\#(seq),"#.utf8)
      return lines.firstIndex { $0.firstRange(of: text) != nil }! + 1
    }
    // After the header (seq 0), after actions 1, 150 and 299, and after the last.
    for seq in [300, 299, 150, 1, 0] {
      lines.insert(shared(after: seq), at: after(seq))
    }
    let withShared = lines.reduce(Data(), +)
    try self.expectAgreement(withShared, "shared")
    for strategy in [FastScan.Strategy.parallel(from: 1), .sequential] {
      let recording = try Recording(data: withShared, strategy: strategy)
      #expect(recording.count == 300)
      #expect(try recording.sharedRecords().map(\.seq) == [0, 1, 150, 299, 300])
    }
    // Out of place: it says it follows action 7, after action 150.
    var misplaced = lines
    misplaced.insert(shared(after: 7), at: after(150))
    try self.expectAgreement(misplaced.reduce(Data(), +), "misplaced")
  }
}
