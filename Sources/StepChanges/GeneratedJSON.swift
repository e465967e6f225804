import Foundation

/// The JSON a value's generated code writes: the bytes `Codable` and a recording's encoder would
/// write for it (compact, keys sorted by their UTF-8 bytes, slashes unescaped), written straight
/// into a buffer.
///
/// The macros generate ``_JSONEncodable`` for the structs and enums whose `Codable` is
/// synthesized; what a generated value holds that has no generated code is handed to
/// ``fallback``, the recording's `Codable` encoder, value by value.
public struct _JSONBuffer {
  /// The bytes written so far.
  public var bytes: [UInt8]
  /// Appends the JSON of a value without generated code to the bytes it is given, or throws
  /// when it cannot write it exactly as the whole value's `Codable` path would.
  public let fallback: (any Encodable, inout [UInt8]) throws -> Void

  /// A buffer that continues `bytes`.
  public init(
    bytes: [UInt8] = [], fallback: @escaping (any Encodable, inout [UInt8]) throws -> Void
  ) {
    self.bytes = bytes
    self.fallback = fallback
  }

  /// Where an object's members are: whether one was written yet.
  public struct Object {
    @usableFromInline var isEmpty = true
    @inlinable init() {}
  }

  /// Opens an object.
  @inlinable
  public mutating func object() -> Object {
    self.bytes.append(UInt8(ascii: "{"))
    return Object()
  }

  /// Closes an object.
  @inlinable
  public mutating func end(_ object: Object) {
    self.bytes.append(UInt8(ascii: "}"))
  }

  /// Starts a member: its comma and its key, which needs no escapes (a Swift name).
  @inlinable
  public mutating func key(_ key: StaticString, in object: inout Object) {
    if !object.isEmpty { self.bytes.append(UInt8(ascii: ",")) }
    object.isEmpty = false
    self.bytes.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
    self.bytes.append(UInt8(ascii: "\""))
    self.bytes.append(UInt8(ascii: ":"))
  }

  /// A member whose value has generated code.
  @inlinable
  public mutating func member<Value: _JSONEncodable>(
    _ key: StaticString, _ value: Value, in object: inout Object
  ) throws {
    self.key(key, in: &object)
    try value._encodeJSON(into: &self)
  }

  /// An optional member: absent when `nil`, as synthesized `Codable` writes it.
  @inlinable
  public mutating func member<Value: _JSONEncodable>(
    _ key: StaticString, _ value: Value?, in object: inout Object
  ) throws {
    guard let value else { return }
    self.key(key, in: &object)
    try value._encodeJSON(into: &self)
  }

  /// A member without generated code, written by ``fallback``.
  @inlinable
  public mutating func member<Value: Encodable>(
    _ key: StaticString, _ value: Value, in object: inout Object
  ) throws {
    self.key(key, in: &object)
    try self.fallback(value, &self.bytes)
  }

  /// An optional member without generated code: absent when `nil`.
  @inlinable
  public mutating func member<Value: Encodable>(
    _ key: StaticString, _ value: Value?, in object: inout Object
  ) throws {
    guard let value else { return }
    self.key(key, in: &object)
    try self.fallback(value, &self.bytes)
  }

  /// An enum's case, `{"name":{`, whose associated values follow as members.
  @inlinable
  public mutating func enumCase(_ name: StaticString) -> Object {
    var outer = self.object()
    self.key(name, in: &outer)
    return self.object()
  }

  /// Closes an enum's case.
  @inlinable
  public mutating func endCase(_ object: Object) {
    self.bytes.append(UInt8(ascii: "}"))
    self.bytes.append(UInt8(ascii: "}"))
  }

  /// A value: its generated code.
  @inlinable
  public mutating func value<Value: _JSONEncodable>(_ value: Value) throws {
    try value._encodeJSON(into: &self)
  }

  /// A value without generated code, written by ``fallback``.
  @inlinable
  public mutating func value<Value: Encodable>(_ value: Value) throws {
    try self.fallback(value, &self.bytes)
  }
}

/// A value whose JSON its generated code writes, as its `Codable` conformance would.
public protocol _JSONEncodable: Encodable {
  /// Appends the value's JSON.
  func _encodeJSON(into json: inout _JSONBuffer) throws
}

/// A value that cannot be written as JSON (a non-finite number): the caller encodes it with
/// `Codable`, which says why.
public struct _JSONUnsupported: Error {
  public init() {}
}

extension String: _JSONEncodable {
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeString(self, into: &json.bytes)
  }
}

extension Bool: _JSONEncodable {
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    json.bytes.append(
      contentsOf: self ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
  }
}

extension Int: _JSONEncodable {
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension Int8: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension Int16: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension Int32: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension Int64: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension UInt: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension UInt8: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension UInt16: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension UInt32: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension UInt64: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension Double: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    guard _JSONOutput.writeFloatingPoint(self, into: &json.bytes) else { throw _JSONUnsupported() }
  }
}

extension Float: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    guard _JSONOutput.writeFloatingPoint(self, into: &json.bytes) else { throw _JSONUnsupported() }
  }
}

extension UUID: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeUUID(self, into: &json.bytes)
  }
}

extension Date: _JSONEncodable {
  /// With the default strategy: the seconds since the reference date.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    try self.timeIntervalSinceReferenceDate._encodeJSON(into: &json)
  }
}

extension URL: _JSONEncodable {
  /// As a recording's encoder writes it: its absolute string.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeString(self.absoluteString, into: &json.bytes)
  }
}

extension Optional: _JSONEncodable where Wrapped: _JSONEncodable {
  /// `null`, or the value: an optional inside an array, or on its own.
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    guard let self else {
      json.bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
      return
    }
    try self._encodeJSON(into: &json)
  }
}

extension Array: _JSONEncodable where Element: _JSONEncodable {
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    try _JSONOutput.writeElements(self, into: &json)
  }
}

/// The forms a recording's encoder writes values in (Foundation's `JSONEncoder`'s, with its
/// default strategies and slashes unescaped), written straight into a byte buffer.
public enum _JSONOutput {
  /// A JSON array of `elements`.
  @inlinable
  public static func writeElements<Elements: Sequence>(
    _ elements: Elements, into json: inout _JSONBuffer
  ) throws where Elements.Element: _JSONEncodable {
    json.bytes.append(UInt8(ascii: "["))
    var isFirst = true
    for element in elements {
      if !isFirst { json.bytes.append(UInt8(ascii: ",")) }
      isFirst = false
      try element._encodeJSON(into: &json)
    }
    json.bytes.append(UInt8(ascii: "]"))
  }

  /// Appends `string` in quotes, escaped as Foundation escapes it without escaping slashes.
  public static func writeString(_ string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var mark = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
        mark = index + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
          output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
          output.append(Self.lowerHexDigit(byte >> 4))
          output.append(Self.lowerHexDigit(byte & 0x0F))
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func lowerHexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  /// A UUID as `uuidString` writes it, in quotes: upper-case hexadecimal in groups of 8, 4, 4,
  /// 4 and 12 digits.
  public static func writeUUID(_ uuid: UUID, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    withUnsafeBytes(of: uuid.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          output.append(UInt8(ascii: "-"))
        }
        output.append(Self.upperHexDigit(byte >> 4))
        output.append(Self.upperHexDigit(byte & 0x0F))
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func upperHexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// An integer in decimal.
  public static func writeInteger(_ value: some FixedWidthInteger, into output: inout [UInt8]) {
    guard value != 0 else {
      output.append(UInt8(ascii: "0"))
      return
    }
    // Digits of the magnitude, least significant first, as a negative number so that `.min`
    // fits.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      if value < 0 {
        var rest = Int64(value)
        while rest != 0 {
          buffer[count] = UInt8(ascii: "0") + UInt8(-(rest % 10))
          rest /= 10
          count += 1
        }
        output.append(UInt8(ascii: "-"))
      } else {
        var rest = UInt64(value)
        while rest != 0 {
          buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
          count += 1
        }
      }
      while count > 0 {
        count -= 1
        output.append(buffer[count])
      }
    }
  }

  /// A finite floating-point number as Foundation writes it: its description, without a
  /// trailing `.0`; `false` for a non-finite one, which Foundation refuses.
  public static func writeFloatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ value: F, into output: inout [UInt8]
  ) -> Bool {
    guard value.isFinite else { return false }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    output.append(contentsOf: text.utf8)
    return true
  }
}

// MARK: - Decoding

/// A parsed JSON document that generated code reads values from, by the index of each value's
/// token: a recording's decoder. Any failure (a missing key, a value of another kind, a number
/// out of range) throws, and the caller decodes the whole value again with `Codable`, which
/// says what went wrong, where, as it always did.
public protocol _JSONReading {
  /// Whether the value at `index` is `null`.
  func isNull(at index: Int) -> Bool
  /// Throws unless the value at `index` is an object.
  func requireObject(at index: Int) throws
  /// The value of the first member named `key` of the object at `index`, or `nil` when it has
  /// none; throws when the value is not an object.
  func member(_ key: StaticString, ofObject index: Int) throws -> Int?
  /// The key and value of the one member of the object at `index` (an enum's case); throws
  /// when it is not an object of one member.
  func soleMember(ofObject index: Int) throws -> (key: UnsafeRawBufferPointer, value: Int)
  /// The indices of the elements of the array at `index`.
  func elements(ofArray index: Int) throws -> _JSONElements
  func string(at index: Int) throws -> String
  func bool(at index: Int) throws -> Bool
  func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at index: Int) throws -> Integer
  func double(at index: Int) throws -> Double
  func uuid(at index: Int) throws -> UUID
  /// A value of a type without generated code, by `Codable`.
  func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T
}

/// The elements of an array on a reader's tape: their tokens' indices, each after the last one's
/// end.
public struct _JSONElements: Sequence {
  public let first: Int
  public let count: Int
  /// The index after a value and all it holds.
  public let after: (Int) -> Int

  public init(first: Int, count: Int, after: @escaping (Int) -> Int) {
    self.first = first
    self.count = count
    self.after = after
  }

  public struct Iterator: IteratorProtocol {
    var index: Int
    var remaining: Int
    let after: (Int) -> Int

    public mutating func next() -> Int? {
      guard self.remaining > 0 else { return nil }
      let current = self.index
      self.remaining -= 1
      if self.remaining > 0 { self.index = self.after(current) }
      return current
    }
  }

  public func makeIterator() -> Iterator {
    Iterator(index: self.first, remaining: self.count, after: self.after)
  }
}

/// A value whose generated code reads it from a reader, as its `Codable` conformance would.
public protocol _JSONDecodable: Decodable {
  init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws
}

extension _JSONReading {
  /// Member `key` of the object at `object`, which must be there.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int
  ) throws -> Value {
    guard let index = try self.member(key, ofObject: object) else { throw _JSONUnsupported() }
    return try Value(_json: self, at: index)
  }

  /// Optional member `key` of the object at `object`: `nil` when absent or `null`, as
  /// synthesized `Codable` reads it.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int
  ) throws -> Value? {
    guard let index = try self.member(key, ofObject: object), !self.isNull(at: index) else {
      return nil
    }
    return try Value(_json: self, at: index)
  }

  /// Member `key` of a type without generated code, by `Codable`: absent, `nil` when the
  /// type is optional.
  @_disfavoredOverload
  @inlinable
  public func member<Value: Decodable>(_ key: StaticString, of object: Int) throws -> Value {
    guard let index = try self.member(key, ofObject: object) else {
      guard let optional = Value.self as? any _JSONOptional.Type else { throw _JSONUnsupported() }
      return optional._none as! Value
    }
    return try self.decode(Value.self, at: index)
  }

  /// Member `key` of the object at `object`, of `type`, as generated code names it: an
  /// associated value's declared type.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, as type: Value.Type
  ) throws -> Value {
    try self.member(key, of: object)
  }

  /// Optional member `key` of `type`: `nil` when absent or `null`.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, as type: Value?.Type
  ) throws -> Value? {
    try self.member(key, of: object)
  }

  /// Member `key` of a type without generated code, by `Codable`.
  @inlinable
  public func member<Value: Decodable>(
    _ key: StaticString, of object: Int, as type: Value.Type
  ) throws -> Value {
    try self.member(key, of: object) as Value
  }

  /// Member `key` of the type of the property at `keyPath`.
  @inlinable
  public func member<Root, Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value>
  ) throws -> Value {
    try self.member(key, of: object)
  }

  /// Optional member `key` of the type of the property at `keyPath`.
  @inlinable
  public func member<Root, Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value?>
  ) throws -> Value? {
    try self.member(key, of: object)
  }

  /// Member `key` of the type of the property at `keyPath`, without generated code.
  @inlinable
  public func member<Root, Value: Decodable>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value>
  ) throws -> Value {
    try self.member(key, of: object) as Value
  }

  /// Whether `key` is `name`.
  @inlinable
  public func key(_ key: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
    name.withUTF8Buffer { $0.count == key.count && $0.elementsEqual(key) }
  }
}

extension String: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.string(at: index)
  }
}

extension Bool: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.bool(at: index)
  }
}

extension Int: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.integer(Int.self, at: index)
  }
}

extension Int64: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.integer(Int64.self, at: index)
  }
}

extension Int32: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.integer(Int32.self, at: index)
  }
}

extension UInt: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.integer(UInt.self, at: index)
  }
}

extension UInt64: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.integer(UInt64.self, at: index)
  }
}

extension Double: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.double(at: index)
  }
}

extension UUID: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.uuid(at: index)
  }
}

extension Date: _JSONDecodable {
  /// With the default strategy: the seconds since the reference date.
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self.init(timeIntervalSinceReferenceDate: try reader.double(at: index))
  }
}

/// An optional, told apart at run time: a member that is absent is `nil`.
public protocol _JSONOptional {
  static var _none: Self { get }
}

extension Optional: _JSONOptional {
  public static var _none: Self { nil }
}

extension Array: _JSONDecodable where Element: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    let elements = try reader.elements(ofArray: index)
    self.init()
    self.reserveCapacity(elements.count)
    for element in elements {
      self.append(try Element(_json: reader, at: element))
    }
  }
}
