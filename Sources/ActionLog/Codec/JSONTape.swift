import StepChanges

/// One pass over a JSON text: each value's kind and where its bytes are, in document order, so
/// that a decoder reads members and elements by offset, and turns into strings and numbers only
/// what it is asked for.
///
/// Validates the JSON as it goes (RFC 8259: one value, with whitespace around it), with a nesting
/// limit, and never recurses: a hostile nesting depth costs a counter, not the stack.
struct JSONTape {
  typealias Kind = _JSONToken.Kind
  /// A value (``StepChanges/_JSONToken``): for a string, its bytes between the quotes; for a
  /// number, its text; for an object or array, its members or elements follow it, up to `end`.
  typealias Token = _JSONToken

  private(set) var tokens: [Token] = []

  /// Where the text is not JSON, and why.
  struct SyntaxError: Error {
    let offset: Int
    let reason: String
  }

  init(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512) throws(SyntaxError) {
    // NB: A record's tokens are written to the stack, then copied once into the array the tape
    // keeps: no array grows token by token.
    let tokens = try withUnsafeTemporaryAllocation(of: Token.self, capacity: 128) {
      (stack) throws(SyntaxError) -> [Token] in
      var buffer = TokenBuffer(stack)
      defer { buffer.release() }
      var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
      try parser.parse(into: &buffer)
      return Array(UnsafeBufferPointer(start: buffer.base, count: buffer.count))
    }
    self.tokens = tokens
  }

  subscript(index: Int) -> Token {
    self.tokens[index]
  }

  /// Tokens as the parser writes them: in a buffer it is given, then on the heap when they
  /// outgrow it.
  struct TokenBuffer {
    var base: UnsafeMutablePointer<Token>
    var capacity: Int
    var count = 0
    private var isOnHeap = false

    init(_ buffer: UnsafeMutableBufferPointer<Token>) {
      self.base = buffer.baseAddress!
      self.capacity = buffer.count
    }

    @inline(__always)
    mutating func append(_ token: Token) {
      if self.count == self.capacity { self.grow() }
      (self.base + self.count).initialize(to: token)
      self.count += 1
    }

    mutating func grow() {
      let larger = UnsafeMutablePointer<Token>.allocate(capacity: self.capacity * 2)
      larger.moveInitialize(from: self.base, count: self.count)
      if self.isOnHeap { self.base.deallocate() }
      self.base = larger
      self.capacity *= 2
      self.isOnHeap = true
    }

    func release() {
      if self.isOnHeap { self.base.deallocate() }
    }
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

    mutating func parse(into tokens: inout TokenBuffer) throws(SyntaxError) {
      // The innermost container open around the current position (-1 at the top), and how
      // many are open. While a container is open, its token's `end` holds the index of the
      // one around it.
      var container = -1
      var depth = 0
      self.skipWhitespace()
      parsing: while true {
        // A value's position; in an object, its member's key comes first.
        if container >= 0, tokens.base[container].kind == .object {
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
        if container >= 0 { tokens.base[container].count += 1 }
        let byte = self.bytes[self.offset]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
          guard depth < self.maximumDepth else {
            throw self.fail("values are nested more than \(self.maximumDepth) deep")
          }
          let isObject = byte == UInt8(ascii: "{")
          tokens.append(
            Token(
              kind: isObject ? .object : .array, start: Int32(self.offset), length: 0,
              end: Int32(container), count: 0))
          container = tokens.count - 1
          depth += 1
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
        while container >= 0 {
          let isObject = tokens.base[container].kind == .object
          guard self.offset < self.bytes.count else {
            throw self.fail("the text ends inside \(isObject ? "an object" : "an array")")
          }
          let byte = self.bytes[self.offset]
          if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            self.offset += 1
            let closed = container
            container = Int(tokens.base[closed].end)
            depth -= 1
            tokens.base[closed].end = Int32(tokens.count)
            tokens.base[closed].length = Int32(self.offset) - tokens.base[closed].start
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

    mutating func scalar(into tokens: inout TokenBuffer) throws(SyntaxError) {
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

    mutating func number(into tokens: inout TokenBuffer) throws(SyntaxError) {
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

    mutating func string(into tokens: inout TokenBuffer) throws(SyntaxError) {
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
