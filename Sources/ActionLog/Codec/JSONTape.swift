/// One pass over a JSON text: each value's kind and where its bytes are, in document order, so
/// that a decoder reads members and elements by offset, and turns into strings and numbers only
/// what it is asked for.
///
/// Validates the JSON as it goes (RFC 8259: one value, with whitespace around it), with a nesting
/// limit, and never recurses: a hostile nesting depth costs a counter, not the stack.
struct JSONTape {
  enum Kind: UInt8 {
    case object, array, string, escapedString, number, `true`, `false`, null
  }

  /// A value: for a string, its bytes between the quotes; for a number, its text; for an
  /// object or array, its members or elements follow it, up to `end`.
  struct Token {
    var kind: Kind
    /// Where its bytes start.
    var start: Int32
    /// How many bytes: for strings and numbers, their text's; for objects and arrays, from the
    /// opening bracket to the closing one.
    var length: Int32
    /// The index of the first token after this value and everything in it.
    var end: Int32
    /// For an object, its members; for an array, its elements.
    var count: Int32
  }

  private(set) var tokens: [Token] = []

  /// Where the text is not JSON, and why.
  struct SyntaxError: Error {
    let offset: Int
    let reason: String
  }

  init(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512) throws(SyntaxError) {
    self.tokens.reserveCapacity(max(8, bytes.count / 6))
    var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
    try parser.parse(into: &self.tokens)
  }

  subscript(index: Int) -> Token {
    self.tokens[index]
  }

  private struct Parser {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    var offset = 0

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
      self.bytes = bytes
      self.maximumDepth = maximumDepth
    }

    func fail(_ reason: String) -> SyntaxError {
      SyntaxError(offset: self.offset, reason: reason)
    }

    mutating func skipWhitespace() {
      while self.offset < self.bytes.count {
        switch self.bytes[self.offset] {
        case 0x20, 0x0A, 0x0D, 0x09: self.offset += 1
        default: return
        }
      }
    }

    mutating func parse(into tokens: inout [Token]) throws(SyntaxError) {
      // The containers open around the current position: their token, and whether an object.
      var open: [(index: Int, isObject: Bool)] = []
      self.skipWhitespace()
      parsing: while true {
        // A value's position; in an object, its member's key comes first.
        if open.last?.isObject == true {
          guard self.offset < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: "\"")
          else { throw self.fail("an object's member must start with a string key") }
          try self.string(into: &tokens)
          self.skipWhitespace()
          guard self.offset < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: ":")
          else { throw self.fail("a key must be followed by \":\"") }
          self.offset += 1
          self.skipWhitespace()
        }
        guard self.offset < self.bytes.count else {
          throw self.fail("the text ends where a value should be")
        }
        if let container = open.last?.index { tokens[container].count += 1 }
        let byte = self.bytes[self.offset]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
          guard open.count < self.maximumDepth else {
            throw self.fail("values are nested more than \(self.maximumDepth) deep")
          }
          let isObject = byte == UInt8(ascii: "{")
          open.append((tokens.count, isObject))
          tokens.append(
            Token(
              kind: isObject ? .object : .array, start: Int32(self.offset), length: 0, end: 0,
              count: 0))
          self.offset += 1
          self.skipWhitespace()
          let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
          guard self.offset < self.bytes.count, self.bytes[self.offset] == close else {
            continue parsing
          }
          // Empty: closed at once, and handled as any value that ends below.
        } else {
          try self.scalar(into: &tokens)
          self.skipWhitespace()
        }
        // After a value: a comma and the next one, or closing brackets, or the end.
        while let (container, isObject) = open.last {
          guard self.offset < self.bytes.count else {
            throw self.fail("the text ends inside \(isObject ? "an object" : "an array")")
          }
          let byte = self.bytes[self.offset]
          if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            self.offset += 1
            open.removeLast()
            tokens[container].end = Int32(tokens.count)
            tokens[container].length = Int32(self.offset) - tokens[container].start
            self.skipWhitespace()
          } else if byte == UInt8(ascii: ",") {
            self.offset += 1
            self.skipWhitespace()
            continue parsing
          } else {
            throw self.fail("expected \",\" or \"\(isObject ? "}" : "]")\"")
          }
        }
        break
      }
      guard self.offset == self.bytes.count else {
        throw self.fail("there is more after the value")
      }
    }

    mutating func scalar(into tokens: inout [Token]) throws(SyntaxError) {
      let start = self.offset
      func literal(_ text: StaticString, _ kind: Kind) throws(SyntaxError) {
        let count = text.utf8CodeUnitCount
        guard self.bytes.count - self.offset >= count,
          (0..<count).allSatisfy({ self.bytes[self.offset + $0] == text.utf8Start[$0] })
        else { throw self.fail("unexpected \"\(Unicode.Scalar(self.bytes[self.offset]))\"") }
        self.offset += count
        tokens.append(
          Token(
            kind: kind, start: Int32(start), length: Int32(count), end: Int32(tokens.count + 1),
            count: 0))
      }
      switch self.bytes[self.offset] {
      case UInt8(ascii: "\""): try self.string(into: &tokens)
      case UInt8(ascii: "t"): try literal("true", .true)
      case UInt8(ascii: "f"): try literal("false", .false)
      case UInt8(ascii: "n"): try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try self.number(into: &tokens)
      default:
        throw self.fail("unexpected \"\(Unicode.Scalar(self.bytes[self.offset]))\"")
      }
    }

    mutating func number(into tokens: inout [Token]) throws(SyntaxError) {
      let start = self.offset
      func digits() -> Int {
        let from = self.offset
        while self.offset < self.bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self.bytes[self.offset])
        {
          self.offset += 1
        }
        return self.offset - from
      }
      if self.bytes[self.offset] == UInt8(ascii: "-") { self.offset += 1 }
      let integer = self.offset
      guard digits() > 0 else { throw self.fail("a number needs digits") }
      if self.bytes[integer] == UInt8(ascii: "0"), self.offset - integer > 1 {
        throw self.fail("a number does not start with 0")
      }
      if self.offset < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: ".") {
        self.offset += 1
        guard digits() > 0 else { throw self.fail("a number needs digits after \".\"") }
      }
      if self.offset < self.bytes.count,
        self.bytes[self.offset] | 0x20 == UInt8(ascii: "e")
      {
        self.offset += 1
        if self.offset < self.bytes.count,
          self.bytes[self.offset] == UInt8(ascii: "+")
            || self.bytes[self.offset] == UInt8(ascii: "-")
        {
          self.offset += 1
        }
        guard digits() > 0 else { throw self.fail("a number needs digits in its exponent") }
      }
      tokens.append(
        Token(
          kind: .number, start: Int32(start), length: Int32(self.offset - start),
          end: Int32(tokens.count + 1), count: 0))
    }

    mutating func string(into tokens: inout [Token]) throws(SyntaxError) {
      self.offset += 1
      let start = self.offset
      var escaped = false
      while true {
        guard self.offset < self.bytes.count else { throw self.fail("a string is not closed") }
        let byte = self.bytes[self.offset]
        if byte == UInt8(ascii: "\"") { break }
        if byte < 0x20 { throw self.fail("a control character in a string must be escaped") }
        if byte == UInt8(ascii: "\\") {
          escaped = true
          self.offset += 2
        } else {
          self.offset += 1
        }
      }
      tokens.append(
        Token(
          kind: escaped ? .escapedString : .string, start: Int32(start),
          length: Int32(self.offset - start), end: Int32(tokens.count + 1), count: 0))
      self.offset += 1
    }
  }
}
