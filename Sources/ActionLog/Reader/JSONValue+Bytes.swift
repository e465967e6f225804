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

extension JSONValue {
  /// The operations that turn the JSON text `old` into `new`: what ``changes(to:)`` works out
  /// from the two parsed values, found on the texts instead. A writer's texts are canonical
  /// (compact, keys sorted), so values whose bytes are equal are equal and are not parsed: only
  /// what differs is, which is what makes a step's update cheap next to the state's encoding.
  ///
  /// Texts that spell equal containers differently (keys in another order, other escapes) may
  /// give more operations than ``changes(to:)``, never wrong ones.
  ///
  /// - Throws: ``JSONValueSyntaxError`` when either text is not JSON.
  public static func changes(
    fromJSON old: [UInt8], toJSON new: [UInt8]
  ) throws -> [JSONPatchOperation] {
    if old == new { return [] }
    return try Self.changes(from: (old, try Self.tokens(of: old)), to: new).operations
  }

  /// ``changes(fromJSON:toJSON:)`` from a text whose tape is at hand (the writer keeps the last
  /// state's), and the new text's tape, for the next time.
  static func changes(
    from old: (text: [UInt8], tokens: [JSONTape.Token]), to new: [UInt8]
  ) throws -> (operations: [JSONPatchOperation], tokens: [JSONTape.Token]) {
    let tokens = try Self.tokens(of: new)
    if old.text == new { return ([], tokens) }
    let operations = try old.text.withUnsafeBytes { oldBytes in
      try new.withUnsafeBytes { newBytes in
        let differ = TextDiff(
          old: TextDiff.Side(tokens: old.tokens, bytes: oldBytes),
          new: TextDiff.Side(tokens: tokens, bytes: newBytes))
        var operations: [JSONPatchOperation] = []
        try differ.diff(0, 0, path: [], into: &operations)
        return operations
      }
    }
    return (operations, tokens)
  }

  /// The tape of `text`.
  static func tokens(of text: [UInt8]) throws -> [JSONTape.Token] {
    let tape: Result<JSONTape, JSONTape.SyntaxError> = text.withUnsafeBytes { bytes in
      Result { () throws(JSONTape.SyntaxError) -> JSONTape in try JSONTape(bytes) }
    }
    switch tape {
    case .success(let tape): return tape.tokens
    case .failure(let error):
      throw JSONValueSyntaxError(offset: error.offset, problem: error.reason)
    }
  }

  /// ``changes(fromJSON:toJSON:)``'s walk over the two texts' tapes, in ``changes(to:)``'s order.
  private struct TextDiff {
    struct Side {
      let tokens: [JSONTape.Token]
      let bytes: UnsafeRawBufferPointer

      /// All the bytes of the value at `index`, a string's quotes included.
      func text(_ index: Int) -> UnsafeRawBufferPointer {
        let token = self.tokens[index]
        let quoted = token.kind == .string || token.kind == .escapedString ? 1 : 0
        let start = Int(token.start) - quoted
        return UnsafeRawBufferPointer(
          rebasing: self.bytes[start..<(start + Int(token.length) + 2 * quoted)])
      }

      func value(_ index: Int) throws -> JSONValue {
        try JSONValue.value(at: index, of: self.tokens, in: self.bytes)
      }

      func isContainer(_ index: Int) -> Bool {
        self.tokens[index].kind == .object || self.tokens[index].kind == .array
      }

      /// The members of the object at `index`, by key (the last of a key counts).
      func members(_ index: Int) throws -> [String: Int] {
        var members: [String: Int] = [:]
        var member = index + 1
        while member < Int(self.tokens[index].end) {
          guard case .string(let key) = try self.value(member) else { break }
          members[key] = member + 1
          member = Int(self.tokens[member + 1].end)
        }
        return members
      }

      /// The elements of the array at `index`.
      func elements(_ index: Int) -> [Int] {
        var elements: [Int] = []
        elements.reserveCapacity(Int(self.tokens[index].count))
        var element = index + 1
        while element < Int(self.tokens[index].end) {
          elements.append(element)
          element = Int(self.tokens[element].end)
        }
        return elements
      }
    }

    let old: Side
    let new: Side

    /// Whether the old value at `oldIndex` equals the new one at `newIndex`: by their bytes,
    /// and for scalars spelt differently (`1.0`, `1`), by their values.
    func same(_ oldIndex: Int, _ newIndex: Int) -> Bool {
      let a = self.old.text(oldIndex)
      let b = self.new.text(newIndex)
      if a.count == b.count, a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 {
        return true
      }
      guard !self.old.isContainer(oldIndex), !self.new.isContainer(newIndex) else { return false }
      return (try? self.old.value(oldIndex)) == (try? self.new.value(newIndex))
    }

    func diff(
      _ oldIndex: Int, _ newIndex: Int, path: [String],
      into operations: inout [JSONPatchOperation]
    ) throws {
      guard !self.same(oldIndex, newIndex) else { return }
      switch (self.old.tokens[oldIndex].kind, self.new.tokens[newIndex].kind) {
      case (.object, .object):
        let oldMembers = try self.old.members(oldIndex)
        let newMembers = try self.new.members(newIndex)
        for key in oldMembers.keys.sorted() where newMembers[key] == nil {
          operations.append(JSONPatchOperation(.remove, path + [key]))
        }
        for (key, value) in newMembers.sorted(by: { $0.key < $1.key }) {
          if let before = oldMembers[key] {
            try self.diff(before, value, path: path + [key], into: &operations)
          } else {
            operations.append(JSONPatchOperation(.add, path + [key], try self.new.value(value)))
          }
        }
      case (.array, .array):
        try JSONValue.arrayChanges(
          self.old.elements(oldIndex), self.new.elements(newIndex), path: path,
          into: &operations, same: self.same, isPermutation: self.isPermutation(_:of:),
          diff: { try self.diff($0, $1, path: $2, into: &$3) }, value: self.new.value)
      default:
        operations.append(JSONPatchOperation(.replace, path, try self.new.value(newIndex)))
      }
    }

    /// Whether two runs of elements hold the same values, as many times each.
    func isPermutation(_ left: [Int], of right: [Int]) -> Bool {
      var counts: [[UInt8]: Int] = [:]
      for element in left { counts[Array(self.old.text(element)), default: 0] += 1 }
      for element in right {
        let key = Array(self.new.text(element))
        guard let count = counts[key], count > 0 else { return false }
        counts[key] = count - 1
      }
      return true
    }
  }
}
