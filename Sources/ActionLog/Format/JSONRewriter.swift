/// One step of a path into a JSON value: an object's key or an array's index.
enum JSONPathStep: Hashable, Sendable {
  case key(String)
  case index(Int)
}

/// JSON that could not be walked: where and why.
struct JSONRewriterError: Error, CustomStringConvertible {
  var offset: Int
  var problem: String

  var description: String {
    "the JSON is malformed at byte \(self.offset) of the payload: \(self.problem)"
  }
}

/// Rewrites JSON at the byte level, copying everything it does not change: numbers keep their
/// digits and objects their key order, so a rewritten payload is as reproducible as the original.
enum JSONRewriter {
  /// Replaces the strings and numbers at `paths` with placeholders.
  static func redact(
    _ payload: UnsafeRawBufferPointer,
    paths: [RedactionPath],
    placeholders: inout RedactionPlaceholders,
    maximumDepth: Int = ReadLimits.default.maximumJSONDepth
  ) throws -> [UInt8] {
    var walker = Walker(bytes: payload, paths: paths, maximumDepth: maximumDepth)
    walker.placeholders = placeholders
    try walker.document()
    placeholders = walker.placeholders
    return walker.output
  }

  static func redact(
    _ payload: [UInt8],
    paths: [RedactionPath],
    placeholders: inout RedactionPlaceholders
  ) throws -> [UInt8] {
    try payload.withUnsafeBytes { try Self.redact($0, paths: paths, placeholders: &placeholders) }
  }

  /// The payload with every string and number at `paths` replaced by `null`.
  static func masking(_ payload: [UInt8], paths: [RedactionPath]) throws -> [UInt8] {
    try payload.withUnsafeBytes { bytes in
      var walker = Walker(
        bytes: bytes, paths: paths, maximumDepth: ReadLimits.default.maximumJSONDepth)
      walker.masks = true
      try walker.document()
      return walker.output
    }
  }

  /// The members of a top-level object: each key and the byte range of its value.
  static func members(
    of payload: UnsafeRawBufferPointer
  ) throws -> [(
    key: String, value: Range<Int>
  )] {
    var walker = Walker(
      bytes: payload, paths: [], maximumDepth: ReadLimits.default.maximumJSONDepth)
    return try walker.topLevelMembers()
  }

  /// The payload with the values of some top-level members replaced, others removed, and
  /// members it lacks added where their keys sort (in a payload written with sorted keys).
  static func rewritingMembers(
    of payload: UnsafeRawBufferPointer,
    replacing replacements: [String: [UInt8]],
    removing removals: Set<String> = [],
    appending additions: [(String, [UInt8])] = []
  ) throws -> [UInt8] {
    var output: [UInt8] = [UInt8(ascii: "{")]
    var isFirst = true
    let members = try Self.members(of: payload)
    // NB: Each addition goes where its key sorts among the members, so a payload written with
    // sorted keys stays sorted.
    var added = additions.filter { addition in !members.contains { $0.key == addition.0 } }
      .sorted { $0.0 < $1.0 }[...]
    func write(_ key: String, _ value: some Collection<UInt8>) {
      if !isFirst { output.append(UInt8(ascii: ",")) }
      isFirst = false
      JSONString.write(key, into: &output)
      output.append(UInt8(ascii: ":"))
      output.append(contentsOf: value)
    }
    for member in members where !removals.contains(member.key) {
      while let next = added.first, next.0 < member.key {
        write(next.0, next.1)
        added.removeFirst()
      }
      if let replacement = replacements[member.key] {
        write(member.key, replacement)
      } else {
        write(member.key, payload[member.value])
      }
    }
    for (key, value) in added { write(key, value) }
    output.append(UInt8(ascii: "}"))
    return output
  }

  private struct Walker {
    let bytes: UnsafeRawBufferPointer
    let paths: [RedactionPath]
    let maximumDepth: Int
    var index = 0
    var output: [UInt8] = []
    var path: [JSONPathStep] = []
    var placeholders = RedactionPlaceholders()
    /// Whether matched values become `null` rather than placeholders.
    var masks = false

    init(bytes: UnsafeRawBufferPointer, paths: [RedactionPath], maximumDepth: Int) {
      self.bytes = bytes
      self.paths = paths
      self.maximumDepth = maximumDepth
      self.output.reserveCapacity(bytes.count + 32)
    }

    mutating func document() throws {
      try self.value(depth: 0, matched: nil)
      self.copyWhitespace()
      guard self.index == self.bytes.count else {
        throw self.error("there is more after the value")
      }
    }

    mutating func topLevelMembers() throws -> [(key: String, value: Range<Int>)] {
      var members: [(key: String, value: Range<Int>)] = []
      self.copyWhitespace()
      try self.expect(UInt8(ascii: "{"))
      self.copyWhitespace()
      if self.peek == UInt8(ascii: "}") { return [] }
      while true {
        self.copyWhitespace()
        let key = try self.key()
        self.copyWhitespace()
        try self.expect(UInt8(ascii: ":"))
        self.copyWhitespace()
        let start = self.index
        try self.value(depth: 1, matched: nil)
        members.append((key, start..<self.index))
        self.copyWhitespace()
        if self.peek == UInt8(ascii: ",") {
          self.index += 1
          continue
        }
        try self.expect(UInt8(ascii: "}"))
        return members
      }
    }

    var peek: UInt8? {
      self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    func error(_ problem: String) -> JSONRewriterError {
      JSONRewriterError(offset: self.index, problem: problem)
    }

    mutating func expect(_ byte: UInt8) throws {
      guard self.peek == byte else {
        throw self.error("expected \"\(Character(Unicode.Scalar(byte)))\"")
      }
      self.output.append(byte)
      self.index += 1
    }

    mutating func copyWhitespace() {
      while let byte = self.peek,
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
          || byte == UInt8(ascii: "\t")
      {
        self.output.append(byte)
        self.index += 1
      }
    }

    mutating func value(depth: Int, matched: RedactionPath?) throws {
      self.copyWhitespace()
      guard let byte = self.peek else { throw self.error("the JSON ends early") }
      let matched =
        matched ?? (self.paths.isEmpty ? nil : self.paths.first { $0.matchesPrefix(of: self.path) })
      switch byte {
      case UInt8(ascii: "{"):
        guard depth < self.maximumDepth else { throw self.error("nested too deep") }
        try self.expect(byte)
        self.copyWhitespace()
        if self.peek == UInt8(ascii: "}") {
          self.output.append(UInt8(ascii: "}"))
          self.index += 1
          return
        }
        while true {
          self.copyWhitespace()
          let key = try self.key()
          self.copyWhitespace()
          try self.expect(UInt8(ascii: ":"))
          self.path.append(.key(key))
          try self.value(depth: depth + 1, matched: matched)
          self.path.removeLast()
          self.copyWhitespace()
          if self.peek == UInt8(ascii: ",") {
            try self.expect(UInt8(ascii: ","))
            continue
          }
          try self.expect(UInt8(ascii: "}"))
          return
        }

      case UInt8(ascii: "["):
        guard depth < self.maximumDepth else { throw self.error("nested too deep") }
        try self.expect(byte)
        self.copyWhitespace()
        if self.peek == UInt8(ascii: "]") {
          self.output.append(UInt8(ascii: "]"))
          self.index += 1
          return
        }
        var element = 0
        while true {
          self.path.append(.index(element))
          try self.value(depth: depth + 1, matched: matched)
          self.path.removeLast()
          element += 1
          self.copyWhitespace()
          if self.peek == UInt8(ascii: ",") {
            try self.expect(UInt8(ascii: ","))
            continue
          }
          try self.expect(UInt8(ascii: "]"))
          return
        }

      case UInt8(ascii: "\""):
        let token = try self.stringToken()
        self.emit(token, isString: true, matched: matched)

      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let start = self.index
        while let next = self.peek,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) || next == UInt8(ascii: "-")
            || next == UInt8(ascii: "+") || next == UInt8(ascii: ".") || next == UInt8(ascii: "e")
            || next == UInt8(ascii: "E")
        {
          self.index += 1
        }
        self.emit(start..<self.index, isString: false, matched: matched)

      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        for literal in ["true", "false", "null"] {
          let utf8 = Array(literal.utf8)
          if self.index + utf8.count <= self.bytes.count,
            self.bytes[self.index..<(self.index + utf8.count)].elementsEqual(utf8)
          {
            self.output.append(contentsOf: utf8)
            self.index += utf8.count
            return
          }
        }
        throw self.error("not a JSON value")

      default:
        throw self.error("not a JSON value")
      }
    }

    mutating func emit(_ token: Range<Int>, isString: Bool, matched: RedactionPath?) {
      if matched != nil, self.masks {
        self.output.append(contentsOf: Array("null".utf8))
      } else if let matched,
        let placeholder = self.placeholders.placeholder(
          for: Array(self.bytes[token]), isString: isString, path: matched
        )
      {
        self.output.append(contentsOf: placeholder)
      } else {
        self.output.append(contentsOf: self.bytes[token])
      }
    }

    /// Reads a string token, quotes included, without copying it.
    mutating func stringToken() throws -> Range<Int> {
      let start = self.index
      self.index += 1
      while let byte = self.peek {
        self.index += 1
        if byte == UInt8(ascii: "\\") {
          self.index += 1
        } else if byte == UInt8(ascii: "\"") {
          return start..<self.index
        }
      }
      self.index = start
      throw self.error("a string is not closed")
    }

    /// Reads and copies an object key, and returns it unescaped.
    mutating func key() throws -> String {
      guard self.peek == UInt8(ascii: "\"") else { throw self.error("expected a key") }
      let token = try self.stringToken()
      self.output.append(contentsOf: self.bytes[token])
      let inner = self.bytes[(token.lowerBound + 1)..<(token.upperBound - 1)]
      guard inner.contains(UInt8(ascii: "\\")) else {
        return String(decoding: inner, as: UTF8.self)
      }
      return try Self.unescape(Array(inner), at: token.lowerBound)
    }

    static func unescape(_ bytes: [UInt8], at offset: Int) throws -> String {
      var scalars = String.UnicodeScalarView()
      var utf8: [UInt8] = []
      var index = 0
      func flush() {
        scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
        utf8.removeAll()
      }
      func hex(_ at: Int) throws -> UInt32 {
        guard at + 4 <= bytes.count,
          let value = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16)
        else { throw JSONRewriterError(offset: offset + at, problem: "a \\u escape is malformed") }
        return value
      }
      while index < bytes.count {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
          utf8.append(byte)
          index += 1
          continue
        }
        flush()
        let escaped = bytes[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "u"):
          var value = try hex(index)
          index += 4
          if (0xD800..<0xDC00).contains(value), index + 6 <= bytes.count,
            bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
          {
            let low = try hex(index + 2)
            if (0xDC00..<0xE000).contains(low) {
              value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
              index += 6
            }
          }
          scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        default: scalars.append(Unicode.Scalar(escaped))
        }
      }
      flush()
      return String(scalars)
    }
  }
}
