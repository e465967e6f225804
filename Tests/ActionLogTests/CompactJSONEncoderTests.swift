@testable import ActionLog
import Foundation
import TestSupport
import Testing

/// The compact encoder writes what Foundation's encoder writes (sorted keys, slashes
/// unescaped), byte for byte, or leaves the value to Foundation.
@Suite struct CompactJSONEncoderTests {
  static let recordings = recordingsFolder

  func foundation<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try FoundationJSONCodec().encode(value), as: UTF8.self)
  }

  func compact<T: Encodable>(_ value: T) -> String? {
    CompactJSONEncoder().encode(value).map { String(decoding: $0, as: UTF8.self) }
  }

  func expectSame<T: Encodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try self.foundation(value)
    #expect(self.compact(value) == expected, sourceLocation: sourceLocation)
  }

  // MARK: - Values of every shape

  struct Everything: Encodable {
    enum Kind: Encodable {
      case plain
      case labelled(name: String, count: Int)
      case unlabelled(Double, [Int8])
      case nested(Everything?)
    }

    var zebra = "last key written first"
    var apple: Int = .min
    var Banana: UInt64 = .max
    var small: Int8 = -128
    var unsigned: UInt16 = 65535
    var double = 0.1
    var float: Float = 1e-5
    var whole = 3.0
    var negativeZero = -0.0
    var huge = 1e21
    var tiny = Double.leastNonzeroMagnitude
    var third = 1.0 / 3
    var flag = true
    var missing: String? = nil
    var present: String? = "here"
    var text =
      "quote \" backslash \\ slash / newline \n return \r tab \t bell \u{7} unit \u{1F} "
      + "del \u{7F} é 😀 \u{8} \u{C}"
    var list = [[1, 2], [], [3]]
    var strings = ["a", "b/c"]
    var doubles = [1.5, 2.0, -0.25]
    var byName = ["b": 2, "a": 1, "B": 3, "é": 4, "aa": 5, "a\"b": 6, "": 7]
    var byNumber = [10: "ten", 2: "two", -1: "minus one"]
    var byUUID = [UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: true]
    var id = UUID(uuidString: "DEADBEEF-0000-4000-8000-000000000042")!
    var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
    var data = Data([0, 1, 2, 250, 251, 252, 253])
    var url = URL(string: "https://example.com/a%20b?c=d")!
    var decimal = Decimal(string: "12345.6789")!
    var kinds: [Kind] = [
      .plain, .labelled(name: "n", count: 2), .unlabelled(2.5, [1, -1]),
      .nested(nil),
    ]
    var empty = Empty()
    var emptyList: [Int] = []
    var emptyMap: [String: Int] = [:]
  }

  struct Empty: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  @Test func everyShapeMatchesFoundation() throws {
    var value = Everything()
    try self.expectSame(value)
    value.kinds.append(.nested(Everything()))
    try self.expectSame(value)
  }

  @Test func topLevelValuesMatchFoundation() throws {
    try self.expectSame([1, 2, 3])
    try self.expectSame("a string")
    try self.expectSame(42)
    try self.expectSame(Optional<Int>.none)
    try self.expectSame(["k": ["nested": [true, false]]])
  }

  /// A key set twice keeps its last value, as in Foundation's dictionary.
  struct TwiceKeyed: Encodable {
    enum CodingKeys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .b)
      try container.encode(2, forKey: .a)
      try container.encode("again", forKey: .b)
    }
  }

  /// A nested container finished before its parent goes on, keys out of order at every level,
  /// and an object that loses a member (a key set twice) inside one that is reordered.
  struct InTurn: Encodable {
    enum CodingKeys: String, CodingKey { case z, inner, a, twice }
    enum InnerKeys: String, CodingKey { case y, x }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
      var list = inner.nestedUnkeyedContainer(forKey: .y)
      try list.encode(1)
      var deeper = list.nestedContainer(keyedBy: InnerKeys.self)
      try deeper.encode(true, forKey: .y)
      try deeper.encode(false, forKey: .x)
      try list.encode(2)
      try inner.encode("x", forKey: .x)
      try container.encode(TwiceKeyed(), forKey: .twice)
      try container.encode(0, forKey: .z)
      try container.encode(9, forKey: .a)
    }
  }

  /// A value that writes the coding path it is encoded at.
  struct Path: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(
        encoder.codingPath.map { "\($0.stringValue)/\($0.intValue ?? -1)" }.joined(separator: "."))
    }
  }

  struct NestedInList: Encodable {
    enum Keys: String, CodingKey { case path }
    func encode(to encoder: any Encoder) throws {
      var list = encoder.unkeyedContainer()
      try list.encode(Path())
      var object = list.nestedContainer(keyedBy: Keys.self)
      try object.encode(Path(), forKey: .path)
      var inner = list.nestedUnkeyedContainer()
      try inner.encode(Path())
    }
  }

  struct Paths: Encodable {
    enum Kind: Encodable { case one(Path), two(first: Path, [Path]) }
    var list = [Path(), Path()]
    var map = ["k": Path()]
    var kinds = [Kind.one(Path()), .two(first: Path(), [Path()])]
    var nested = [[Path()]]
    var inList = NestedInList()
  }

  @Test func codingPathsMatchFoundation() throws {
    try self.expectSame(Paths())
  }

  @Test func unusualContainerUseMatchesFoundation() throws {
    try self.expectSame(TwiceKeyed())
    try self.expectSame(InTurn())
    try self.expectSame([InTurn(), InTurn()])
  }

  // MARK: - What it leaves to Foundation

  struct NotANumber: Encodable {
    var value = Double.nan
  }

  /// Containers written to in turns: the parent, then its nested container again.
  struct Interleaved: Encodable {
    enum CodingKeys: String, CodingKey { case z, inner, a }
    enum InnerKeys: String, CodingKey { case y, x }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
      var list = inner.nestedUnkeyedContainer(forKey: .y)
      try container.encode(0, forKey: .z)
      try inner.encode("x", forKey: .x)
      try list.encode(1)
    }
  }

  class Base: Encodable {
    var base = 1
  }

  final class Derived: Base {
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(2, forKey: AnyKey(stringValue: "derived"))
      try super.encode(to: container.superEncoder())
    }
  }

  struct Reopened: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      var first = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: "o"))
      try first.encode(1, forKey: AnyKey(stringValue: "one"))
      var second = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: "o"))
      try second.encode(2, forKey: AnyKey(stringValue: "two"))
    }
  }

  struct Failing: Encodable {
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
  }

  @Test func leavesToFoundationWhatItDoesNotWriteTheSameWay() throws {
    #expect(self.compact(NotANumber()) == nil)
    #expect(throws: EncodingError.self) { try CompactJSONCodec().encode(NotANumber()) }
    #expect(self.compact(Derived()) == nil)
    #expect(
      String(decoding: try CompactJSONCodec().encode(Derived()), as: UTF8.self)
        == (try self.foundation(Derived())))
    #expect(self.compact(Reopened()) == nil)
    #expect(
      String(decoding: try CompactJSONCodec().encode(Reopened()), as: UTF8.self)
        == (try self.foundation(Reopened())))
    #expect(self.compact(Interleaved()) == nil)
    #expect(
      String(decoding: try CompactJSONCodec().encode(Interleaved()), as: UTF8.self)
        == (try self.foundation(Interleaved())))
    #expect(self.compact(Failing()) == nil)
    #expect(throws: Failing.Refused.self) { try CompactJSONCodec().encode(Failing()) }
    #expect(self.compact(Empty()) == nil)
  }

  // MARK: - Every payload of the bundled recordings

  @Test func everyBundledPayloadMatchesFoundation() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: Self.recordings.path)
      .filter { $0.hasSuffix(".actionlog") }
    #expect(files.count >= 3)
    var payloads = 0
    for file in files {
      let data = try Data(contentsOf: Self.recordings.appendingPathComponent(file))
      for line in data.split(separator: UInt8(ascii: "\n")) {
        let payload = Data(line.dropFirst(Framing.prefixLength))
        let value = try JSONDecoder().decode(JSONValue.self, from: payload)
        let compact = try #require(self.compact(value), "\(file)")
        #expect(compact == (try self.foundation(value)), "\(file)")
        payloads += 1
      }
    }
    #expect(payloads > 500)
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
