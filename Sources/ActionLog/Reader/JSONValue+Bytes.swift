import Foundation

// JSON bytes to a `JSONValue` and back, in one pass each: what a migration does to every record
// of an older recording, so it must cost little next to decoding the record.

extension JSONValue {
  /// Parses one JSON value from `bytes` (whitespace around it allowed).
  ///
  /// - Throws: ``JSONValueSyntaxError`` with the byte offset where the text stops being JSON.
  public static func parse(
    _ bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512
  ) throws
    -> JSONValue
  {
    var parser = JSONValueParser(bytes: bytes, maximumDepth: maximumDepth)
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.offset == bytes.count else { throw parser.error("text after the value") }
    return value
  }

  /// Parses one JSON value from `bytes`.
  public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
    try bytes.withUnsafeBytes { try Self.parse($0) }
  }

  /// Appends the value as compact JSON with sorted keys to `output`.
  public func write(into output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case .integer(let value): output.append(contentsOf: String(value).utf8)
    case .number(let value):
      if value.rounded() == value, abs(value) < 1e15 {
        output.append(contentsOf: String(Int64(value)).utf8)
      } else {
        output.append(contentsOf: String(value).utf8)
      }
    case .string(let value): JSONString.write(value, into: &output)
    case .array(let values):
      output.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        value.write(into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      let keys =
        members.count == 1
        ? Array(members.keys) : members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      for (index, key) in keys.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSONString.write(key, into: &output)
        output.append(UInt8(ascii: ":"))
        members[key]!.write(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// The value as compact JSON bytes with sorted keys.
  public var bytes: [UInt8] {
    var output: [UInt8] = []
    self.write(into: &output)
    return output
  }
}

/// Text that is not JSON, and where.
public struct JSONValueSyntaxError: Error, Equatable, CustomStringConvertible {
  /// The byte offset where it stops being JSON.
  public let offset: Int
  /// What was expected there.
  public let problem: String

  public var description: String {
    "not JSON at byte \(self.offset): \(self.problem)"
  }
}

private struct JSONValueParser {
  let bytes: UnsafeRawBufferPointer
  let maximumDepth: Int
  var offset = 0

  init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  func error(_ problem: String) -> JSONValueSyntaxError {
    JSONValueSyntaxError(offset: self.offset, problem: problem)
  }

  var current: UInt8? { self.offset < self.bytes.count ? self.bytes[self.offset] : nil }

  mutating func skipWhitespace() {
    while let byte = self.current,
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    {
      self.offset += 1
    }
  }

  mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
    for byte in literal.utf8 {
      guard self.current == byte else { throw self.error("expected \(literal)") }
      self.offset += 1
    }
    return value
  }

  mutating func value(depth: Int) throws -> JSONValue {
    guard depth < self.maximumDepth else {
      throw self.error("nested deeper than \(self.maximumDepth) levels")
    }
    switch self.current {
    case UInt8(ascii: "{")?:
      self.offset += 1
      var members: [String: JSONValue] = [:]
      self.skipWhitespace()
      if self.current == UInt8(ascii: "}") {
        self.offset += 1
        return .object(members)
      }
      while true {
        self.skipWhitespace()
        guard self.current == UInt8(ascii: "\"") else { throw self.error("expected a key") }
        let key = try self.string()
        self.skipWhitespace()
        guard self.current == UInt8(ascii: ":") else { throw self.error("expected \":\"") }
        self.offset += 1
        self.skipWhitespace()
        members[key] = try self.value(depth: depth + 1)
        self.skipWhitespace()
        switch self.current {
        case UInt8(ascii: ",")?: self.offset += 1
        case UInt8(ascii: "}")?:
          self.offset += 1
          return .object(members)
        default: throw self.error("expected \",\" or \"}\"")
        }
      }
    case UInt8(ascii: "[")?:
      self.offset += 1
      var elements: [JSONValue] = []
      self.skipWhitespace()
      if self.current == UInt8(ascii: "]") {
        self.offset += 1
        return .array(elements)
      }
      while true {
        self.skipWhitespace()
        elements.append(try self.value(depth: depth + 1))
        self.skipWhitespace()
        switch self.current {
        case UInt8(ascii: ",")?: self.offset += 1
        case UInt8(ascii: "]")?:
          self.offset += 1
          return .array(elements)
        default: throw self.error("expected \",\" or \"]\"")
        }
      }
    case UInt8(ascii: "\"")?: return .string(try self.string())
    case UInt8(ascii: "t")?: return try self.expect("true", .bool(true))
    case UInt8(ascii: "f")?: return try self.expect("false", .bool(false))
    case UInt8(ascii: "n")?: return try self.expect("null", .null)
    case let byte? where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39):
      return try self.number()
    default:
      throw self.error("expected a value")
    }
  }

  mutating func number() throws -> JSONValue {
    let start = self.offset
    var isInteger = true
    if self.current == UInt8(ascii: "-") { self.offset += 1 }
    while let byte = self.current {
      switch byte {
      case 0x30...0x39: break
      case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"),
        UInt8(ascii: "-"):
        isInteger = false
      default:
        return try self.finishNumber(from: start, isInteger: isInteger)
      }
      self.offset += 1
    }
    return try self.finishNumber(from: start, isInteger: isInteger)
  }

  func finishNumber(from start: Int, isInteger: Bool) throws -> JSONValue {
    let text = String(
      decoding: UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.offset]), as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let number = Double(text), number.isFinite else {
      throw JSONValueSyntaxError(offset: start, problem: "\(text) is not a number")
    }
    return .number(number)
  }

  mutating func string() throws -> String {
    self.offset += 1  // The opening quote.
    let start = self.offset
    var escaped = false
    while let byte = self.current, byte != UInt8(ascii: "\"") {
      guard byte >= 0x20 else { throw self.error("a control character in a string") }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        self.offset += 1
      }
      self.offset += 1
    }
    guard self.current == UInt8(ascii: "\"") else { throw self.error("the string is not closed") }
    let text = UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.offset])
    self.offset += 1
    // Most strings have no escapes: a slice of the bytes.
    guard escaped else { return String(decoding: text, as: UTF8.self) }
    do {
      return String(decoding: try JSONEscapes.unescaped(text), as: UTF8.self)
    } catch {
      throw JSONValueSyntaxError(offset: start + error.offset, problem: error.reason)
    }
  }

}
