import Foundation
import StepChanges

/// Decodes `Decodable` values from JSON bytes over a ``JSONTape``: one pass to find every value,
/// then containers that read members and elements by offset, comparing keys as bytes and making
/// strings and numbers only of what is decoded.
///
/// It accepts what Foundation's `JSONDecoder` accepts with its default strategies (`Data` as
/// Base64, `Date` as seconds since 2001, `URL` as a string), and fails the way it does: a
/// `DecodingError` of the same kind at the same coding path (a number out of its type's range
/// is named with its path, where Foundation reports the whole text as not valid JSON). When a
/// key appears twice in an object, the first one counts, as in Foundation.
struct TapeJSONDecoder {
  func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
    let tape: JSONTape
    do {
      tape = try JSONTape(bytes)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [],
          debugDescription:
            "The given data was not valid JSON: \(error.reason) (at byte \(error.offset))."))
    }
    let document = TapeDocument(tokens: tape.tokens, bytes: bytes)
    return try document.unbox(T.self, at: 0, path: nil)
  }
}

/// A coding path, as a list from the innermost key out: made only when an error needs it.
final class TapePath {
  let key: any CodingKey
  let parent: TapePath?

  init(_ key: any CodingKey, parent: TapePath?) {
    self.key = key
    self.parent = parent
  }

  static func keys(_ path: TapePath?) -> [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = path
    while let current = node {
      keys.append(current.key)
      node = current.parent
    }
    return keys.reversed()
  }
}

/// An element's key in a coding path: `Index 3`, as Foundation names it.
struct TapeIndexKey: CodingKey {
  let intValue: Int?
  let stringValue: String

  init(_ index: Int) {
    self.intValue = index
    self.stringValue = "Index \(index)"
  }

  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.init(intValue) }
}

/// The document being decoded: its tokens and bytes.
final class TapeDocument {
  let tokens: [JSONTape.Token]
  let bytes: UnsafeRawBufferPointer

  init(tokens: [JSONTape.Token], bytes: UnsafeRawBufferPointer) {
    self.tokens = tokens
    self.bytes = bytes
  }

  /// A value of `type` from the token at `index`.
  func unbox<T: Decodable>(_ type: T.Type, at index: Int, path: TapePath?) throws -> T {
    if T.self == Data.self {
      let text = try self.string(at: index, as: type, path: { path })
      guard let data = Data(base64Encoded: text) else {
        throw self.corrupted(path, "Encountered Data is not valid Base64.")
      }
      return data as! T
    }
    if T.self == URL.self {
      let text = try self.string(at: index, as: type, path: { path })
      guard let url = URL(string: text) else {
        throw self.corrupted(path, "Invalid URL string.")
      }
      return url as! T
    }
    if T.self == Decimal.self {
      let token = try self.token(at: index, of: .number, as: type, path: { path })
      guard let decimal = Decimal(string: self.text(of: token), locale: nil) else {
        throw self.corrupted(path, "Number \(self.text(of: token)) is not a Decimal.")
      }
      return decimal as! T
    }
    if T.self == UUID.self, let uuid = self.parsedUUID(at: index) {
      // NB: The usual form read here; anything else as UUID reads itself, errors included.
      return uuid as! T
    }
    if let value = self.generated(type, at: index) { return value }
    return try T(from: TapeDecoder(document: self, index: index, path: path))
  }

  /// A UUID written as `UUID(uuidString:)` reads it (36 characters, hyphens at 8, 13, 18, 23),
  /// without making a string of it; `nil` for anything else.
  func parsedUUID(at index: Int) -> UUID? {
    let token = self.tokens[index]
    guard token.kind == .string else { return nil }
    return _JSONReader.uuid(self.bytes(of: token))
  }

  // MARK: - Scalars

  func token(
    at index: Int, of kind: JSONTape.Kind, as type: Any.Type, path: () -> TapePath?
  ) throws -> JSONTape.Token {
    let token = self.tokens[index]
    guard token.kind == kind || kind == .string && token.kind == .escapedString else {
      throw self.mismatch(type, token, path())
    }
    return token
  }

  func mismatch(_ type: Any.Type, _ token: JSONTape.Token, _ path: TapePath?) -> DecodingError {
    if token.kind == .null {
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: TapePath.keys(path),
          debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: TapePath.keys(path),
        debugDescription: "Expected to decode \(type) but found \(Self.describe(token)) instead."))
  }

  func corrupted(_ path: TapePath?, _ description: String) -> DecodingError {
    DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: TapePath.keys(path), debugDescription: description))
  }

  static func describe(_ token: JSONTape.Token) -> String {
    switch token.kind {
    case .object: "a dictionary"
    case .array: "an array"
    case .string, .escapedString: "a string"
    case .number: "number"
    case .true, .false: "bool"
    case .null: "null"
    }
  }

  func bytes(of token: JSONTape.Token) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      rebasing: self.bytes[Int(token.start)..<Int(token.start) + Int(token.length)])
  }

  func text(of token: JSONTape.Token) -> String {
    String(decoding: self.bytes(of: token), as: UTF8.self)
  }

  func bool(at index: Int, path: () -> TapePath?) throws -> Bool {
    let token = self.tokens[index]
    switch token.kind {
    case .true: return true
    case .false: return false
    default: throw self.mismatch(Bool.self, token, path())
    }
  }

  func string(
    at index: Int, as type: Any.Type = String.self, path: () -> TapePath?
  ) throws -> String {
    let token = try self.token(at: index, of: .string, as: type, path: path)
    let bytes = self.bytes(of: token)
    if token.kind == .string {
      guard let string = _JSONReader.string(validating: bytes) else {
        throw self.corrupted(path(), "The string is not valid UTF-8.")
      }
      return string
    }
    return try self.unescaped(bytes, path: path())
  }

  /// The string a JSON string's escaped bytes stand for.
  func unescaped(_ bytes: UnsafeRawBufferPointer, path: TapePath?) throws -> String {
    let output: [UInt8]
    do {
      output = try JSONEscapes.unescaped(bytes)
    } catch {
      throw self.corrupted(path, "The string is not valid: \(error.reason).")
    }
    guard let string = String(validating: output, as: UTF8.self) else {
      throw self.corrupted(path, "The string is not valid UTF-8.")
    }
    return string
  }

  func double(
    at index: Int, as type: Any.Type = Double.self, path: () -> TapePath?
  ) throws -> Double {
    let token = try self.token(at: index, of: .number, as: type, path: path)
    let bytes = self.bytes(of: token)
    let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) {
      buffer in
      for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
      buffer[bytes.count] = 0
      return strtod(buffer.baseAddress!, nil)
    }
    guard value.isFinite else {
      throw self.corrupted(
        path(), "Number \(self.text(of: token)) is not representable in Swift.\(type).")
    }
    return value
  }

  func float(at index: Int, path: () -> TapePath?) throws -> Float {
    let value = try self.double(at: index, as: Float.self, path: path)
    let float = Float(value)
    guard float.isFinite else {
      throw self.corrupted(
        path(), "Number \(self.text(of: self.tokens[index])) is not representable in Swift.Float.")
    }
    return float
  }

  func integer<Integer: FixedWidthInteger>(
    _ type: Integer.Type, at index: Int, path: () -> TapePath?
  ) throws -> Integer {
    let token = try self.token(at: index, of: .number, as: type, path: path)
    let bytes = self.bytes(of: token)
    func unrepresentable() -> DecodingError {
      self.corrupted(
        path(), "Number \(self.text(of: token)) is not representable in Swift.\(type).")
    }
    // Exactly, as decimal digits: `1e3` and `12.50e1` are integers; `1.5` is not.
    let isNegative = bytes.first == UInt8(ascii: "-")
    var magnitude: UInt64 = 0
    var fractionDigits = 0
    var droppedDigits: [UInt8] = []
    var exponent = 0
    var offset = isNegative ? 1 : 0
    var inFraction = false
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else if byte | 0x20 == UInt8(ascii: "e") {
        guard let parsed = Int(String(decoding: bytes[(offset + 1)...], as: UTF8.self)),
          abs(parsed) < 1_000
        else { throw unrepresentable() }
        exponent = parsed
        break
      } else {
        let digit = UInt64(byte - UInt8(ascii: "0"))
        let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, carry) = times.addingReportingOverflow(digit)
        if overflow || carry {
          // More digits than fit: integral only if they are zeros the exponent or the
          // fraction takes back.
          droppedDigits.append(byte)
        } else {
          magnitude = sum
        }
        if inFraction { fractionDigits += 1 }
      }
      offset += 1
    }
    var scale = exponent - fractionDigits + droppedDigits.count
    guard droppedDigits.allSatisfy({ $0 == UInt8(ascii: "0") }) else { throw unrepresentable() }
    while scale < 0 {
      guard magnitude % 10 == 0 else { throw unrepresentable() }
      magnitude /= 10
      scale += 1
    }
    while scale > 0, magnitude != 0 {
      let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else { throw unrepresentable() }
      magnitude = times
      scale -= 1
    }
    if isNegative {
      guard Integer.isSigned || magnitude == 0 else { throw unrepresentable() }
      guard magnitude <= UInt64(Int64.max) + 1 else { throw unrepresentable() }
      let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
      guard let exact = Integer(exactly: value) else { throw unrepresentable() }
      return exact
    }
    guard let exact = Integer(exactly: magnitude) else { throw unrepresentable() }
    return exact
  }
}

/// The `Decoder` at one value of a ``TapeDocument``.
struct TapeDecoder: Decoder {
  let document: TapeDocument
  let index: Int
  let path: TapePath?

  var codingPath: [any CodingKey] { TapePath.keys(self.path) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    _ = try self.document.token(
      at: self.index, of: .object, as: [String: Any].self, path: { self.path })
    return KeyedDecodingContainer(
      TapeKeyedContainer<Key>(document: self.document, index: self.index, path: self.path))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    _ = try self.document.token(at: self.index, of: .array, as: [Any].self, path: { self.path })
    return TapeUnkeyedContainer(document: self.document, index: self.index, path: self.path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    self
  }
}

extension TapeDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool { self.document.tokens[self.index].kind == .null }
  func decode(_ type: Bool.Type) throws -> Bool {
    try self.document.bool(at: self.index, path: { self.path })
  }
  func decode(_ type: String.Type) throws -> String {
    try self.document.string(at: self.index, path: { self.path })
  }
  func decode(_ type: Double.Type) throws -> Double {
    try self.document.double(at: self.index, path: { self.path })
  }
  func decode(_ type: Float.Type) throws -> Float {
    try self.document.float(at: self.index, path: { self.path })
  }
  func decode(_ type: Int.Type) throws -> Int { try self.integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try self.integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try self.integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try self.integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try self.integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try self.integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try self.integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try self.integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try self.integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try self.integer(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try self.document.unbox(type, at: self.index, path: self.path)
  }

  private func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
    try self.document.integer(type, at: self.index, path: { self.path })
  }
}
