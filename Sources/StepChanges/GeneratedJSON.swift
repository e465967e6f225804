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
    guard _codesItself(Value.self) else { return try self.member(key, value as Any, in: &object) }
    self.key(key, in: &object)
    try self.fallback(value, &self.bytes)
  }

  /// An optional member without generated code: absent when `nil`.
  @inlinable
  public mutating func member<Value: Encodable>(
    _ key: StaticString, _ value: Value?, in object: inout Object
  ) throws {
    guard let value else { return }
    guard _codesItself(Value.self) else { return try self.member(key, value as Any, in: &object) }
    self.key(key, in: &object)
    try self.fallback(value, &self.bytes)
  }

  /// A member whose type is not `Encodable` (a model declared without `Codable`), written by
  /// reflection (``_ReflectedValue``) as synthesized `Codable` would write it.
  @_disfavoredOverload
  public mutating func member<Value>(
    _ key: StaticString, _ value: Value, in object: inout Object
  ) throws {
    // NB: A `nil` optional is left out, as synthesized `encodeIfPresent` leaves it.
    if _Reflection.isNil(value) { return }
    self.key(key, in: &object)
    try self.fallback(_ReflectedValue(value), &self.bytes)
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
  // NB: Not `@inlinable`, and no conditional between two array literals: so written, the
  // optimizer's witness for a `Bool` reached through `any _JSONEncodable` wrote `false` for
  // `true` (and `true` for `false`) in release builds.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    if self {
      json.bytes.append(contentsOf: "true".utf8)
    } else {
      json.bytes.append(contentsOf: "false".utf8)
    }
  }
}

extension _JSONEncodable where Self: FixedWidthInteger {
  /// In decimal.
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    _JSONOutput.writeInteger(self, into: &json.bytes)
  }
}

extension _JSONEncodable where Self: BinaryFloatingPoint & CustomStringConvertible {
  /// As Foundation writes it; a non-finite number, which it refuses, is left to `Codable`.
  @inlinable
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    guard _JSONOutput.writeFloatingPoint(self, into: &json.bytes) else { throw _JSONUnsupported() }
  }
}

extension Int: _JSONEncodable {}
extension Int8: _JSONEncodable {}
extension Int16: _JSONEncodable {}
extension Int32: _JSONEncodable {}
extension Int64: _JSONEncodable {}
extension UInt: _JSONEncodable {}
extension UInt8: _JSONEncodable {}
extension UInt16: _JSONEncodable {}
extension UInt32: _JSONEncodable {}
extension UInt64: _JSONEncodable {}
extension Double: _JSONEncodable {}
extension Float: _JSONEncodable {}

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
