import ActionLog
import Foundation
import TestSupport
import Testing

/// `replay verify --integrity`: every class of damage the log tests know, named with its record
/// and byte offset.
@Suite struct IntegrityTests {
  static let root = ReplayCommandTests.root

  /// The bundled counter recording's lines, each with its newline.
  static func lines() throws -> [Data] {
    let data = try Data(
      contentsOf: Self.root.appendingPathComponent("Recordings/counter.actionlog"))
    var lines: [Data] = []
    var start = data.startIndex
    while let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(Data(data[start...newline]))
      start = newline + 1
    }
    return lines
  }

  /// The byte offset of line `index` (from 0).
  static func offset(of index: Int, in lines: [Data]) -> Int {
    lines.prefix(index).map(\.count).reduce(0, +)
  }

  private func check(_ bytes: Data) async throws -> ProcessResult {
    let directory = TemporaryDirectory()
    let file = directory.file("damaged.actionlog")
    try bytes.write(to: file)
    return try await run("replay", ["verify", "--integrity", file.path], in: Self.root)
  }

  @Test func anIntactRecordingPasses() async throws {
    let result = try await run(
      "replay", ["verify", "--integrity", "Recordings/counter.actionlog"], in: Self.root
    )
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            counter.actionlog is intact: the header (format 1, feature "counter"), 118 actions and \
            3 checkpoints, every checksum matching, and the end record.

            """,
          errors: ""
        )
    )
  }

  @Test func everyClassOfDamageIsNamedWithItsRecordAndOffset() async throws {
    let lines = try Self.lines()
    // The record of action 4, whatever records come before it.
    func actionLine(_ seq: Int) throws -> Int {
      try #require(
        lines.firstIndex {
          String(decoding: $0, as: UTF8.self).contains("{\"kind\":\"action\",\"seq\":\(seq),")
        })
    }
    let index = try actionLine(4)
    let record = index + 1
    let offset = Self.offset(of: index, in: lines)
    // Without action 4, action 5 comes after a gap: one record and one line earlier.
    let afterGap = try actionLine(5)
    let afterGapOffset = Self.offset(of: afterGap, in: lines) - lines[index].count
    func replacing(_ index: Int, with line: Data) -> Data {
      var copy = lines
      copy[index] = line
      return copy.reduce(Data(), +)
    }
    func flipping(_ index: Int, byte: Int) -> Data {
      var line = lines[index]
      line[line.startIndex + byte] ^= 0x01
      return replacing(index, with: line)
    }
    let whole = lines.reduce(Data(), +)
    let damaged: [(String, Data, String)] = [
      (
        "flipped bit in a payload", flipping(index, byte: 20),
        "record \(record) (byte offset \(offset)) is damaged: its checksum says"
      ),
      (
        "flipped bit in a checksum", flipping(index, byte: 2),
        "record \(record) (byte offset \(offset)) is damaged: its checksum says"
      ),
      (
        "bad JSON", replacing(index, with: framedLine("{\"kind\":\"action\",")),
        "record \(record) (byte offset \(offset)) is not a record"
      ),
      (
        "a gap in the sequence",
        lines.enumerated().filter { $0.offset != index }.map(\.element).reduce(Data(), +),
        "record \(afterGap) (byte offset \(afterGapOffset)) comes after a gap: action 4 is "
          + "missing before it"
      ),
      (
        "an unknown record kind",
        replacing(index, with: framedLine("{\"kind\":\"mystery\",\"seq\":4}")),
        "record \(record) (byte offset \(offset)) has the unknown kind \"mystery\""
      ),
      ("a truncated last record", whole.dropLast(10), "the last "),
      ("a missing last newline", whole.dropLast(1), "the last "),
      (
        "garbage appended", whole + Data("garbage\n".utf8),
        "there is data after the end record, from byte offset \(whole.count)"
      ),
      ("no end record", lines.dropLast().reduce(Data(), +), "it has no end record"),
      ("a header only", lines[0], "it has no end record"),
    ]
    for (name, bytes, expected) in damaged {
      let result = try await self.check(bytes)
      #expect(result.status == 1, "\(name)")
      #expect(
        result.output.hasPrefix("damaged.actionlog is damaged:\n  • "), "\(name): \(result.output)")
      #expect(result.output.contains(expected), "\(name): \(result.output)")
    }
  }

  @Test func anUnreadableHeaderOrNewerFormatIsAnError() async throws {
    let lines = try Self.lines()
    let empty = try await self.check(Data())
    #expect(empty.status == 1)
    #expect(empty.errors.hasPrefix("replay: "))
    let header = String(decoding: lines[0].dropFirst(9).dropLast(), as: UTF8.self)
    let newer = header.replacingOccurrences(of: "\"format\":1", with: "\"format\":99")
    #expect(newer != header)
    let result = try await self.check(framedLine(newer) + lines.dropFirst().reduce(Data(), +))
    #expect(result.status == 1)
    #expect(result.errors.contains("99"), "\(result.errors)")
  }
}
