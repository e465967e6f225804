@testable import ActionLog
import Foundation
import IdentifiedCollections
import PropertyBased
import Testing

/// The record codec against Foundation's, on generated values: the encoder writes Foundation's
/// bytes, and the decoder reads from them (and from the other spellings JSON allows for the same
/// strings) what Foundation reads. A failure names the input and the seed that reproduces it.
@Suite struct CodecPropertyTests {
  enum Shape: Codable, Equatable {
    case none
    case unlabelled(Int, String)
    case labelled(width: Double, height: Float)
    case several(Int8, label: String?, [Shape], UInt64)
  }

  struct Item: Codable, Equatable, Identifiable {
    var id: UUID
    var name: String
  }

  struct Sample: Codable, Equatable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var bool: Bool
    var string: String
    var optional: Int?
    var nested: String??
    var deeper: Int???
    var shape: Shape
    var date: Date
    var uuid: UUID
    var data: Data
    var url: URL
    var decimal: Decimal
    var byName: [String: Int]
    var byNumber: [Int: String]
    var items: IdentifiedArrayOf<Item>
    var matrix: [[Double]]

    /// The sample as JSON gives it back: an optional inside an optional that holds `nil` is
    /// written as `null`, which reads back as the outer `nil`.
    var readBack: Self {
      var copy = self
      if case .some(.none) = self.nested { copy.nested = nil }
      if case .some(.none) = self.deeper { copy.deeper = nil }
      if case .some(.some(.none)) = self.deeper { copy.deeper = nil }
      return copy
    }
  }

  // MARK: - Generators

  /// An integer of any width: its extremes and their neighbours as often as anything else.
  static func integer<T: FixedWidthInteger>(
    _ type: T.Type, _ rng: inout any SeededRandomNumberGenerator
  ) -> T {
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: T.min
    case 1: T.max
    case 2: Bool.random(using: &rng) ? T.min + 1 : T.max - 1
    case 3: T(truncatingIfNeeded: Int.random(in: -2...2, using: &rng))
    default: T.random(in: T.min...T.max, using: &rng)
    }
  }

  /// A finite floating-point number from its bits, so subnormals, large exponents and `-0.0`
  /// come as often as ordinary numbers.
  static func floatingPoint<T: BinaryFloatingPoint>(
    _ type: T.Type, _ rng: inout any SeededRandomNumberGenerator
  ) -> T where T.RawSignificand: FixedWidthInteger, T.RawExponent: FixedWidthInteger {
    switch Int.random(in: 0..<8, using: &rng) {
    case 0:
      return [-0.0, 0, T.leastNonzeroMagnitude, -T.leastNonzeroMagnitude].randomElement(
        using: &rng)!
    case 1:
      return [T.greatestFiniteMagnitude, -T.greatestFiniteMagnitude, T.leastNormalMagnitude]
        .randomElement(using: &rng)!
    case 2:
      // A subnormal number: the smallest exponent, any significand.
      let significand = T.RawSignificand.random(
        in: 0...(T.RawSignificand(1) << T.significandBitCount - 1), using: &rng)
      return T(
        sign: Bool.random(using: &rng) ? .minus : .plus, exponentBitPattern: 0,
        significandBitPattern: significand)
    case 3: return T(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 100
    default:
      while true {
        let exponent = T.RawExponent.random(
          in: 0...(T.RawExponent(1) << T.exponentBitCount - 2), using: &rng)
        let significand = T.RawSignificand.random(
          in: 0...(T.RawSignificand(1) << T.significandBitCount - 1), using: &rng)
        let value = T(
          sign: Bool.random(using: &rng) ? .minus : .plus, exponentBitPattern: exponent,
          significandBitPattern: significand)
        if value.isFinite { return value }
      }
    }
  }

  /// A string of scalars JSON escapes (quotes, backslashes, control characters), slashes, the
  /// line separators, two-, three- and four-byte UTF-8 (the last a surrogate pair in `\u` form).
  static func string(_ rng: inout any SeededRandomNumberGenerator) -> String {
    let ranges: [ClosedRange<UInt32>] = [
      0x00...0x1F, 0x20...0x7E, 0x22...0x22, 0x2F...0x2F, 0x5C...0x5C, 0x7F...0x7F,
      0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFD, 0x2028...0x2029, 0x1_0000...0x10_FFFF,
    ]
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
      let range = ranges.randomElement(using: &rng)!
      scalars.append(Unicode.Scalar(UInt32.random(in: range, using: &rng))!)
    }
    return String(scalars)
  }

  static func uuid(_ rng: inout any SeededRandomNumberGenerator) -> UUID {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { buffer in
      for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &rng) }
    }
    return UUID(uuid: bytes)
  }

  static func shape(_ rng: inout any SeededRandomNumberGenerator, depth: Int = 0) -> Shape {
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: return .none
    case 1: return .unlabelled(integer(Int.self, &rng), string(&rng))
    case 2:
      return .labelled(
        width: floatingPoint(Double.self, &rng),
        height: floatingPoint(
          Float.self, &rng))
    default:
      let count = depth > 3 ? 0 : Int.random(in: 0...3, using: &rng)
      return .several(
        integer(Int8.self, &rng), label: Bool.random(using: &rng) ? nil : string(&rng),
        (0..<count).map { _ in shape(&rng, depth: depth + 1) }, integer(UInt64.self, &rng))
    }
  }

  static func optional<T>(
    _ rng: inout any SeededRandomNumberGenerator,
    _ make: (inout any SeededRandomNumberGenerator)
      -> T
  ) -> T? {
    Bool.random(using: &rng) ? nil : make(&rng)
  }

  static let samples = Generator<Sample, Shrink.None<Sample>> { rng in
    let urls = [
      "https://example.com/a/b?c=d&e=%20f#g", "file:///tmp/x%20y", "relative/path", "mailto:a@b.c",
      "https://user:pass@host:8080/", "urn:uuid:1",
    ]
    let decimal = Decimal(
      sign: Bool.random(using: &rng) ? .minus : .plus,
      exponent: Int.random(in: -20...20, using: &rng),
      significand: Decimal(UInt64.random(in: 0...UInt64.max, using: &rng)))
    return Sample(
      int: integer(Int.self, &rng), int8: integer(Int8.self, &rng),
      int16: integer(Int16.self, &rng), int32: integer(Int32.self, &rng),
      int64: integer(Int64.self, &rng), uint: integer(UInt.self, &rng),
      uint8: integer(UInt8.self, &rng), uint16: integer(UInt16.self, &rng),
      uint32: integer(UInt32.self, &rng), uint64: integer(UInt64.self, &rng),
      double: floatingPoint(Double.self, &rng), float: floatingPoint(Float.self, &rng),
      bool: Bool.random(using: &rng), string: string(&rng),
      optional: optional(&rng) { integer(Int.self, &$0) },
      nested: optional(&rng) { optional(&$0) { string(&$0) } },
      deeper: optional(&rng) { optional(&$0) { optional(&$0) { integer(Int.self, &$0) } } },
      shape: shape(&rng),
      date: Date(timeIntervalSinceReferenceDate: floatingPoint(Double.self, &rng)),
      uuid: uuid(&rng),
      data: Data(
        (0..<Int.random(in: 0...40, using: &rng)).map { _ in
          UInt8.random(
            in: 0...255,
            using: &rng)
        }),
      url: URL(string: urls.randomElement(using: &rng)!)!,
      decimal: decimal,
      byName: Dictionary(
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in (string(&rng), integer(Int.self, &rng))
        }, uniquingKeysWith: { first, _ in first }),
      byNumber: Dictionary(
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in (integer(Int.self, &rng), string(&rng))
        }, uniquingKeysWith: { first, _ in first }),
      items: IdentifiedArray(
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in
          Item(
            id: uuid(&rng),
            name: string(
              &rng))
        }, uniquingIDsWith: { first, _ in first }),
      matrix: (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in floatingPoint(Double.self, &rng) }
      }
    )
  }

  // MARK: - Helpers

  static func foundation<T: Encodable>(_ value: T) throws -> [UInt8] {
    try FoundationJSONCodec().encode(value)
  }

  static func decode<T: Decodable>(
    _ type: T.Type, _ bytes: [UInt8], with codec: some RecordCodec
  ) -> Result<T, any Error> {
    bytes.withUnsafeBytes { buffer in Result { try codec.decode(type, from: buffer) } }
  }

  /// The same JSON with every string's non-ASCII scalars (and some ASCII ones) written as `\u`
  /// escapes, a scalar past the Basic Multilingual Plane as a surrogate pair, and the short
  /// escapes in their `\u` form.
  static func escapingEverything(_ json: [UInt8], lowercase: Bool) -> [UInt8] {
    func hex(_ unit: UInt16) -> String {
      let digits = String(unit, radix: 16, uppercase: !lowercase)
      return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
    let text = String(decoding: json, as: UTF8.self)
    var output = ""
    var inString = false
    var escaped = false
    for scalar in text.unicodeScalars {
      if !inString {
        if scalar == "\"" { inString = true }
        output.unicodeScalars.append(scalar)
        continue
      }
      if escaped {
        escaped = false
        let short: [Unicode.Scalar: UInt16] = [
          "n": 0x0A, "t": 0x09, "r": 0x0D, "b": 0x08, "f": 0x0C,
        ]
        if let unit = short[scalar] {
          output.removeLast()
          output += hex(unit)
        } else {
          output.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\\":
        escaped = true
        output.unicodeScalars.append(scalar)
      case "\"":
        inString = false
        output.unicodeScalars.append(scalar)
      case "a", "Z", "/":
        output += hex(UInt16(scalar.value))
      case _ where scalar.value < 0x80:
        output.unicodeScalars.append(scalar)
      default:
        for unit in String(scalar).utf16 { output += hex(unit) }
      }
    }
    return Array(output.utf8)
  }

  // MARK: - Properties

  @Test func theEncoderWritesFoundationsBytes() async throws {
    await propertyCheck(count: 300, input: Self.samples) { sample in
      let expected = try Self.foundation(sample)
      let ours = try #require(CompactJSONEncoder().encode(sample), "left to Foundation")
      #expect(
        String(decoding: ours, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
  }

  @Test func theDecoderReadsWhatFoundationReads() async throws {
    await propertyCheck(count: 300, input: Self.samples) { sample in
      let bytes = try Self.foundation(sample)
      let ours = try Self.decode(Sample.self, bytes, with: CompactJSONCodec()).get()
      let foundation = try Self.decode(Sample.self, bytes, with: FoundationJSONCodec()).get()
      #expect(ours == foundation)
      // Written again, the value gives the same bytes: every number came back to the bit
      // (`-0.0` and subnormals too), every string to the scalar.
      #expect(try Self.foundation(ours) == Self.foundation(sample.readBack))
    }
  }

  @Test func everySpellingOfAStringReadsAlike() async throws {
    await propertyCheck(count: 200, input: Self.samples, Gen.bool) { sample, lowercase in
      let plain = try Self.foundation(sample)
      let escaped = Self.escapingEverything(plain, lowercase: lowercase)
      let ours = try Self.decode(Sample.self, escaped, with: CompactJSONCodec()).get()
      let foundation = try Self.decode(Sample.self, escaped, with: FoundationJSONCodec()).get()
      #expect(ours == foundation)
      #expect(try Self.foundation(ours) == Self.foundation(sample.readBack))
    }
  }

  /// Arrays nested `depth` deep.
  indirect enum Nest: Codable, Equatable {
    case leaf(Int)
    case nest([Nest])

    init(depth: Int) {
      self = .leaf(depth)
      for _ in 0..<depth { self = .nest([self]) }
    }

    init(from decoder: any Decoder) throws {
      if var container = try? decoder.unkeyedContainer() {
        var values: [Nest] = []
        while !container.isAtEnd { values.append(try container.decode(Nest.self)) }
        self = .nest(values)
      } else {
        self = .leaf(try decoder.singleValueContainer().decode(Int.self))
      }
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case let .leaf(value):
        var container = encoder.singleValueContainer()
        try container.encode(value)
      case let .nest(values):
        var container = encoder.unkeyedContainer()
        for value in values { try container.encode(value) }
      }
    }
  }

  /// Foundation reads arrays nested 512 deep and writes 511; ours stop where it stops.
  @Test func nestingUpToTheLimitAndPastIt() async throws {
    await propertyCheck(count: 80, input: Gen.int(in: 495...530)) { depth in
      let text = String(repeating: "[", count: depth) + "0" + String(repeating: "]", count: depth)
      let bytes = Array(text.utf8)
      let ours = Self.decode(Nest.self, bytes, with: CompactJSONCodec())
      let foundation = Self.decode(Nest.self, bytes, with: FoundationJSONCodec())
      switch (ours, foundation) {
      case let (.success(left), .success(right)):
        #expect(left == right && depth <= 512)
      case let (.failure(error), .failure):
        #expect(depth > 512)
        #expect(error is DecodingError, "\(error)")
      default:
        Issue.record("depth \(depth): ours \(ours), Foundation \(foundation)")
      }
      let nest = Nest(depth: depth)
      let written = CompactJSONEncoder().encode(nest)
      let reference = Result { try FoundationJSONCodec().encode(nest) }
      #expect(
        written == (try? reference.get()),
        "depth \(depth): ours \(written?.count ?? 0) bytes, Foundation \(reference.map(\.count))")
    }
  }

  @Test func aTruncatedOrExtendedRecordIsATypedError() async throws {
    let garbage = [",", "}", "]", " x", "{}", "\"", "\u{0}"]
    await propertyCheck(
      count: 300, input: Self.samples, Gen.double(in: 0..<1), Gen<String?>.element(of: garbage)
    ) { sample, fraction, tail in
      let bytes = try Self.foundation(sample)
      let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
      for damaged in [cut, bytes + Array((tail ?? "").utf8)] {
        let ours = Self.decode(Sample.self, damaged, with: CompactJSONCodec())
        let foundation = Self.decode(Sample.self, damaged, with: FoundationJSONCodec())
        guard case let .failure(error) = ours else {
          Issue.record("accepted: \(String(decoding: damaged, as: UTF8.self))")
          continue
        }
        #expect(error is DecodingError, "\(error)")
        #expect(throws: (any Error).self) { try foundation.get() }
      }
    }
  }
}
