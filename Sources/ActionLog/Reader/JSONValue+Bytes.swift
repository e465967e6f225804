import Foundation

// JSON bytes to a `JSONValue` (over the record decoder's `JSONTape`) and back: what a migration
// does to every record of an older recording, so it must cost little next to decoding the
// record.

extension JSONValue {
  /// Parses one JSON value from `bytes` (whitespace around it allowed).
  ///
  /// - Throws: ``JSONValueSyntaxError`` with the byte offset where the text stops being JSON.
  public static func parse(
    _ bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512
  ) throws
    -> JSONValue
  {
    let tape: JSONTape
    do {
      tape = try JSONTape(bytes, maximumDepth: maximumDepth)
    } catch {
      throw JSONValueSyntaxError(offset: error.offset, problem: error.reason)
    }
    return try Self.value(at: 0, of: tape.tokens, in: bytes)
  }

  /// The value at token `index`; the tape bounds the nesting, so the recursion is bounded too.
  private static func value(
    at index: Int, of tokens: [JSONTape.Token], in bytes: UnsafeRawBufferPointer
  ) throws -> JSONValue {
    let token = tokens[index]
    let text = UnsafeRawBufferPointer(
      rebasing: bytes[Int(token.start)..<Int(token.start) + Int(token.length)])
    func string() throws -> String {
      guard token.kind == .escapedString else { return String(decoding: text, as: UTF8.self) }
      do {
        return String(decoding: try JSONEscapes.unescaped(text), as: UTF8.self)
      } catch {
        throw JSONValueSyntaxError(offset: Int(token.start) + error.offset, problem: error.reason)
      }
    }
    switch token.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .string, .escapedString: return .string(try string())
    case .number:
      let number = String(decoding: text, as: UTF8.self)
      let isInteger = !text.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
      if isInteger, let integer = Int64(number) { return .integer(integer) }
      guard let value = Double(number), value.isFinite else {
        throw JSONValueSyntaxError(offset: Int(token.start), problem: "\(number) is not a number")
      }
      return .number(value)
    case .array:
      var elements: [JSONValue] = []
      elements.reserveCapacity(Int(token.count))
      var element = index + 1
      while element < Int(token.end) {
        elements.append(try Self.value(at: element, of: tokens, in: bytes))
        element = Int(tokens[element].end)
      }
      return .array(elements)
    case .object:
      var members: [String: JSONValue] = [:]
      members.reserveCapacity(Int(token.count))
      var member = index + 1
      while member < Int(token.end) {
        // NB: The last of duplicate keys counts.
        let key = try Self.value(at: member, of: tokens, in: bytes)
        guard case .string(let name) = key else { break }
        members[name] = try Self.value(at: member + 1, of: tokens, in: bytes)
        member = Int(tokens[member + 1].end)
      }
      return .object(members)
    }
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
