import Foundation

/// One value of a parsed JSON text: its kind and where its bytes are. For a string, its bytes
/// between the quotes; for a number, its text; an object's members or an array's elements
/// follow its token, up to `end`.
public struct _JSONToken {
  public enum Kind: UInt8 {
    case object, array, string, escapedString, number, `true`, `false`, null
  }

  public var kind: Kind
  /// Where its bytes start.
  public var start: Int32
  /// How many bytes: for strings and numbers, their text's; for objects and arrays, from the
  /// opening bracket to the closing one.
  public var length: Int32
  /// The index of the first token after this value and everything in it.
  public var end: Int32
  /// For an object, its members; for an array, its elements.
  public var count: Int32

  @inlinable
  public init(kind: Kind, start: Int32, length: Int32, end: Int32, count: Int32) {
    self.kind = kind
    self.start = start
    self.length = length
    self.end = end
    self.count = count
  }
}

/// The document behind a ``_JSONReader``: what generated code hands back to it, off the usual
/// path (a type without generated code, an escaped string, a number with an exponent).
public protocol _JSONReaderSource: AnyObject {
  /// A value of a type without generated code, by `Codable`.
  func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T
  /// The string a string token with escapes stands for.
  func escapedString(at index: Int) throws -> String
  /// A number that is not plain digits (a fraction, an exponent, many digits) as an integer.
  func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at index: Int) throws -> Integer
  func double(at index: Int) throws -> Double
}

/// A parsed JSON document that generated code reads values from, by the index of each value's
/// token: a recording's decoder. Any failure (a missing key, a value of another kind, a number
/// out of range) throws, and the caller decodes the whole value again with `Codable`, which
/// says what went wrong, where, as it always did.
///
/// A concrete type whose reading is inlined into each value's generated code: no call through
/// a protocol per member.
public struct _JSONReader {
  @usableFromInline let tokens: UnsafeBufferPointer<_JSONToken>
  @usableFromInline let bytes: UnsafeRawBufferPointer
  @usableFromInline unowned(unsafe) let source: any _JSONReaderSource

  /// A reader of `tokens` over `bytes`, which must outlive it, as must `source`.
  public init(
    tokens: UnsafeBufferPointer<_JSONToken>, bytes: UnsafeRawBufferPointer,
    source: any _JSONReaderSource
  ) {
    self.tokens = tokens
    self.bytes = bytes
    self.source = source
  }

  /// The document behind the reader.
  public var document: any _JSONReaderSource { self.source }

  /// Whether the value at `index` is `null`.
  @inlinable
  public func isNull(at index: Int) -> Bool {
    self.tokens[index].kind == .null
  }

  /// Throws unless the value at `index` is an object.
  @inlinable
  public func requireObject(at index: Int) throws {
    guard self.tokens[index].kind == .object else { throw _JSONUnsupported() }
  }

  /// The value of the first member named `key` of the object at `index`, or `nil` when it has
  /// none; throws when the value is not an object.
  @inlinable
  public func member(_ key: StaticString, ofObject index: Int) throws -> Int? {
    let object = self.tokens[index]
    guard object.kind == .object else { throw _JSONUnsupported() }
    // The member's value, -1 when there is none, -2 when a key is written with escapes (which
    // `Codable`'s path compares).
    let found = key.withUTF8Buffer { wanted -> Int in
      var member = index + 1
      let end = Int(object.end)
      while member < end {
        let token = self.tokens[member]
        guard token.kind == .string else { return -2 }
        if Int(token.length) == wanted.count,
          wanted.isEmpty
            || memcmp(
              self.bytes.baseAddress! + Int(token.start), wanted.baseAddress!, wanted.count) == 0
        {
          return member + 1
        }
        member = Int(self.tokens[member + 1].end)
      }
      return -1
    }
    guard found != -2 else { throw _JSONUnsupported() }
    return found >= 0 ? found : nil
  }

  /// The key and value of the one member of the object at `index` (an enum's case); throws
  /// when it is not an object of one member.
  @inlinable
  public func soleMember(ofObject index: Int) throws -> (key: UnsafeRawBufferPointer, value: Int) {
    let token = self.tokens[index]
    guard token.kind == .object, token.count == 1, self.tokens[index + 1].kind == .string else {
      throw _JSONUnsupported()
    }
    return (self.bytes(of: self.tokens[index + 1]), index + 2)
  }

  /// The indices of the elements of the array at `index`.
  @inlinable
  public func elements(ofArray index: Int) throws -> _JSONElements {
    let token = self.tokens[index]
    guard token.kind == .array else { throw _JSONUnsupported() }
    return _JSONElements(tokens: self.tokens, first: index + 1, count: Int(token.count))
  }

  @inlinable
  func bytes(of token: _JSONToken) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      start: self.bytes.baseAddress! + Int(token.start), count: Int(token.length))
  }

  public func string(at index: Int) throws -> String {
    let token = self.tokens[index]
    switch token.kind {
    case .string:
      guard let string = Self.string(validating: self.bytes(of: token)) else {
        throw _JSONUnsupported()
      }
      return string
    case .escapedString:
      return try self.source.escapedString(at: index)
    default:
      throw _JSONUnsupported()
    }
  }

  /// The string of UTF-8 `bytes`, or `nil` when they are not valid UTF-8.
  public static func string(validating bytes: UnsafeRawBufferPointer) -> String? {
    // NB: ASCII needs no validation, which costs more than a short string itself.
    if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  @inlinable
  public func bool(at index: Int) throws -> Bool {
    switch self.tokens[index].kind {
    case .true: return true
    case .false: return false
    default: throw _JSONUnsupported()
    }
  }

  /// A number without a fraction that fits: plain digits read here, any other form by the
  /// document.
  @inlinable
  public func integer<Integer: FixedWidthInteger>(
    _ type: Integer.Type, at index: Int
  ) throws -> Integer {
    let token = self.tokens[index]
    guard token.kind == .number else { throw _JSONUnsupported() }
    var offset = Int(token.start)
    let end = offset + Int(token.length)
    let isNegative = self.bytes[offset] == UInt8(ascii: "-")
    if isNegative { offset += 1 }
    // NB: 18 digits cannot overflow an `Int64`; the tape has checked the number's form.
    guard end - offset <= 18 else { return try self.source.integer(type, at: index) }
    var magnitude: Int64 = 0
    while offset < end {
      let digit = self.bytes[offset] &- UInt8(ascii: "0")
      guard digit < 10 else { return try self.source.integer(type, at: index) }
      magnitude = magnitude &* 10 &+ Int64(digit)
      offset += 1
    }
    guard let value = Integer(exactly: isNegative ? -magnitude : magnitude) else {
      throw _JSONUnsupported()
    }
    return value
  }

  public func double(at index: Int) throws -> Double {
    try self.source.double(at: index)
  }

  public func uuid(at index: Int) throws -> UUID {
    let token = self.tokens[index]
    guard token.kind == .string, let uuid = Self.uuid(self.bytes(of: token)) else {
      throw _JSONUnsupported()
    }
    return uuid
  }

  /// A UUID written as `UUID(uuidString:)` reads it (36 characters, hyphens at 8, 13, 18, 23),
  /// without making a string of it; `nil` for anything else.
  public static func uuid(_ text: UnsafeRawBufferPointer) -> UUID? {
    guard text.count == 36 else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
      var offset = 0
      var written = 0
      while offset < 36 {
        if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
          guard text[offset] == UInt8(ascii: "-") else { return false }
          offset += 1
          continue
        }
        guard let high = Self.hexDigit(text[offset]), let low = Self.hexDigit(text[offset + 1])
        else { return false }
        output[written] = high << 4 | low
        written += 1
        offset += 2
      }
      return true
    }
    return parsed ? UUID(uuid: uuid) : nil
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// A value of a type without generated code, by `Codable`.
  @inlinable
  public func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    try self.source.decode(type, at: index)
  }
}

/// The elements of an array on a reader's tape: their tokens' indices, each after the last one's
/// end.
public struct _JSONElements: Sequence {
  @usableFromInline let tokens: UnsafeBufferPointer<_JSONToken>
  public let first: Int
  public let count: Int

  @inlinable
  init(tokens: UnsafeBufferPointer<_JSONToken>, first: Int, count: Int) {
    self.tokens = tokens
    self.first = first
    self.count = count
  }

  public struct Iterator: IteratorProtocol {
    @usableFromInline let tokens: UnsafeBufferPointer<_JSONToken>
    @usableFromInline var index: Int
    @usableFromInline var remaining: Int

    @inlinable
    init(tokens: UnsafeBufferPointer<_JSONToken>, index: Int, remaining: Int) {
      self.tokens = tokens
      self.index = index
      self.remaining = remaining
    }

    @inlinable
    public mutating func next() -> Int? {
      guard self.remaining > 0 else { return nil }
      let current = self.index
      self.remaining -= 1
      if self.remaining > 0 { self.index = Int(self.tokens[current].end) }
      return current
    }
  }

  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(tokens: self.tokens, index: self.first, remaining: self.count)
  }
}
