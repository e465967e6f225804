@testable import ActionLog
import Foundation
import TestSupport
import Testing

/// The fast scan, split across cores, indexes a recording exactly as the sequential scanner does;
/// on anything it does not handle, it leaves the file to the sequential scanner.
@Suite struct FastScanTests {
  static let recordings = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Recordings")

  enum Variant: String, CaseIterable, Sendable {
    case clean, unterminated, tornTail, note, damaged, gap, endThenTorn, checkpointFirst
  }

  @Test(arguments: Variant.allCases)
  func agreesWithTheSequentialScan(_ variant: Variant) throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    var data = try writeLog(to: url, count: 301, close: variant != .unterminated && variant != .tornTail)
    let offsets = lineOffsets(data)
    switch variant {
    case .clean, .unterminated:
      break
    case .tornTail:
      data.append(Data(#"1234abcd {"kind":"action","seq":302"#.utf8))
    case .note:
      data.insert(contentsOf: framedLine(#"{"kind":"note","seq":150,"text":"hello"}"#), at: offsets[200])
    case .damaged:
      data[offsets[200] + 30] ^= 0x01
    case .gap:
      data.removeSubrange(offsets[200]..<offsets[201])
    case .endThenTorn:
      data.append(Data("0000".utf8))
    case .checkpointFirst:
      // A checkpoint of an action not yet read.
      data.insert(contentsOf: framedLine(#"{"kind":"checkpoint","seq":999,"value":{"total":0}}"#), at: offsets[1])
    }
    try self.expectAgreement(data)
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
        let text = Array((number + tail).utf8)
        let parsed: Int64? = text.withUnsafeBufferPointer { buffer in
          var cursor = buffer.baseAddress!
          return FastScan.integer(at: &cursor, before: buffer.baseAddress! + buffer.count)
        }
        let valid = digits <= 18 && (tail.hasPrefix(",") || tail.hasPrefix("}"))
        #expect(parsed == (valid ? Int64(number) : nil), "\(number)\(tail)")
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
      #expect(fast.skippedRecords == sequential.skippedRecords, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.checkpoints == sequential.checkpoints, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.duration == sequential.duration, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.actions.times == sequential.actions.times, "\(name)", sourceLocation: sourceLocation)
      #expect(fast.actions.triggers == sequential.actions.triggers, "\(name)", sourceLocation: sourceLocation)
      #expect(
        fast.actions.lines.map { [$0.record, $0.offset, $0.payloadLength] }
          == sequential.actions.lines.map { [$0.record, $0.offset, $0.payloadLength] },
        "\(name)", sourceLocation: sourceLocation
      )
      #expect(
        fast.checkpointLines.mapValues { [$0.record, $0.offset, $0.payloadLength] }
          == sequential.checkpointLines.mapValues { [$0.record, $0.offset, $0.payloadLength] },
        "\(name)", sourceLocation: sourceLocation
      )
    }
  }
}
