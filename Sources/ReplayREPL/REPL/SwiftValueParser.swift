import Foundation
import TimeTravel

/// Reads a value written in Swift, as the REPL prints actions: a case with or without its
/// type (`.addTodoButtonTapped`, `Todos.Action.todos(…)`), labelled and unlabelled associated
/// values, `UUID(…)` and `Date(…)` as printed, strings with escapes, numbers, `true`, `false`,
/// `nil`, arrays, and structs as `Type(label: value)`.
struct SwiftValueParser {
  /// Where the text stops being a value: the column (from 1) and what was expected there.
  struct Failure: Error, Equatable {
    let column: Int
    let expected: String
    let found: String

    /// The message, with the text and a caret under the column.
    func message(for text: String) -> String {
      """
      column \(self.column): expected \(self.expected), found \(self.found)
        \(text)
        \(String(repeating: " ", count: self.column - 1))^
      """
    }
  }

  private let characters: [Character]
  private var position = 0

  private init(_ text: String) {
    self.characters = Array(text)
  }

  /// The value `text` holds, which must be all of it.
  static func parse(_ text: String) throws(Failure) -> SwiftValue {
    var parser = SwiftValueParser(text)
    let value = try parser.value()
    parser.skipSpaces()
    guard parser.position == parser.characters.count else {
      throw parser.failure("the end of the value")
    }
    return value
  }

  private var current: Character? {
    self.position < self.characters.count ? self.characters[self.position] : nil
  }

  private mutating func skipSpaces() {
    while let character = self.current, character.isWhitespace { self.position += 1 }
  }

  private func failure(_ expected: String) -> Failure {
    let found: String
    if let current = self.current {
      let rest = String(self.characters[self.position...].prefix(12))
      found = current == "\"" ? "a string" : "\"\(rest)\(rest.count == 12 ? "…" : "")\""
    } else {
      found = "the end of the line"
    }
    return Failure(column: self.position + 1, expected: expected, found: found)
  }

  private mutating func expect(_ character: Character, _ expected: String) throws(Failure) {
    self.skipSpaces()
    guard self.current == character else { throw self.failure(expected) }
    self.position += 1
  }

  private mutating func value() throws(Failure) -> SwiftValue {
    self.skipSpaces()
    switch self.current {
    case "."?:
      self.position += 1
      guard let name = self.identifier() else {
        throw self.failure("a case name after \".\"")
      }
      return .enumCase(name, try self.argumentsIfAny())
    case "\""?:
      return .string(try self.string())
    case "["?:
      return try self.array()
    case "\\"?:
      self.position += 1
      var components: [String] = []
      while self.current == "." {
        self.position += 1
        guard let name = self.identifier() else { throw self.failure("a property's name") }
        components.append(name)
      }
      guard !components.isEmpty else { throw self.failure("\".\" and a property's name") }
      return .keyPath(components.joined(separator: "."))
    case let character? where character == "-" || character.isNumber:
      return .number(try self.number())
    case "#"?:
      // A stack element's identity, as printed: `#0`.
      self.position += 1
      guard self.current?.isNumber == true else { throw self.failure("a number after \"#\"") }
      return .number(try self.number())
    case let character? where character.isLetter || character == "_" || character == "`":
      return try self.named()
    default:
      throw self.failure(
        "a value (a case such as .name, a string, a number, true, false, nil, [, \\.field or a type)"
      )
    }
  }

  /// `Type.Path.case(…)`, `Type(…)`, `true`, `false` or `nil`.
  private mutating func named() throws(Failure) -> SwiftValue {
    var components: [String] = []
    repeat {
      if !components.isEmpty { self.position += 1 }
      guard let name = self.identifier() else {
        throw self.failure("a name after \".\"")
      }
      components.append(name)
    } while self.current == "."
    let last = components[components.count - 1]
    if components.count == 1 {
      switch last {
      case "true": return .bool(true)
      case "false": return .bool(false)
      case "nil": return .nil
      default: break
      }
    }
    if let first = last.first, first.isLowercase || first == "_" {
      // A case, after the type that declares it.
      return .enumCase(last, try self.argumentsIfAny())
    }
    let type = components.joined(separator: ".")
    if ["UUID", "Date"].contains(last), let bare = self.bareArgument() {
      return .call(type, [SwiftValue.Argument(nil, .bare(bare))])
    }
    guard let arguments = try self.argumentsIfAny() else {
      throw self.failure("\"(\" after the type \(type), or a case: \(type).name")
    }
    return .call(type, arguments)
  }

  /// What a printed `UUID(…)` or `Date(…)` holds: the text up to the closing parenthesis, when
  /// it is not a string or a labelled argument.
  private mutating func bareArgument() -> String? {
    guard self.current == "(" else { return nil }
    var end = self.position + 1
    while end < self.characters.count, self.characters[end] != ")" {
      if self.characters[end] == "\""
        || self.characters[end] == ":" && end + 1 < self.characters.count
          && self.characters[end + 1] == " "
      {
        return nil
      }
      end += 1
    }
    guard end < self.characters.count else { return nil }
    let text = String(self.characters[(self.position + 1)..<end])
    self.position = end + 1
    return text.trimmingCharacters(in: .whitespaces)
  }

  private mutating func identifier() -> String? {
    let mark = self.position
    guard let name = self.identifierText() else {
      self.position = mark
      return nil
    }
    return name
  }

  private mutating func identifierText() -> String? {
    var isQuoted = false
    if self.current == "`" {
      isQuoted = true
      self.position += 1
    }
    let start = self.position
    while let character = self.current, character.isLetter || character.isNumber || character == "_"
    {
      self.position += 1
    }
    guard self.position > start, !self.characters[start].isNumber else { return nil }
    let name = String(self.characters[start..<self.position])
    if isQuoted {
      guard self.current == "`" else { return nil }
      self.position += 1
    }
    return name
  }

  /// `(label: value, value)`, or `nil` when no parenthesis follows.
  private mutating func argumentsIfAny() throws(Failure) -> [SwiftValue.Argument]? {
    guard self.current == "(" else { return nil }
    self.position += 1
    var arguments: [SwiftValue.Argument] = []
    self.skipSpaces()
    if self.current == ")" {
      self.position += 1
      return arguments
    }
    while true {
      self.skipSpaces()
      var label: String?
      let start = self.position
      if let name = self.identifier() {
        self.skipSpaces()
        if self.current == ":" {
          self.position += 1
          label = name
        } else {
          self.position = start
        }
      }
      arguments.append(SwiftValue.Argument(label, try self.value()))
      self.skipSpaces()
      if self.current == "," {
        self.position += 1
        continue
      }
      try self.expect(")", "\",\" or \")\" after an argument")
      return arguments
    }
  }

  private mutating func array() throws(Failure) -> SwiftValue {
    self.position += 1
    var values: [SwiftValue] = []
    self.skipSpaces()
    if self.current == "]" {
      self.position += 1
      return .array(values)
    }
    // An empty dictionary, `[:]`, as an error's `userInfo` prints.
    if self.current == ":" {
      self.position += 1
      self.skipSpaces()
      try self.expect("]", "\"]\" after \"[:\"")
      return .call("", [])
    }
    while true {
      self.skipIndexLabel()
      values.append(try self.value())
      self.skipSpaces()
      if self.current == "," {
        self.position += 1
        continue
      }
      try self.expect("]", "\",\" or \"]\" after an element")
      return .array(values)
    }
  }

  /// An element's index as the REPL prints it before the element, `[0]: `: skipped.
  private mutating func skipIndexLabel() {
    self.skipSpaces()
    let mark = self.position
    guard self.current == "[" else { return }
    self.position += 1
    var digits = 0
    while self.current?.isNumber == true {
      digits += 1
      self.position += 1
    }
    guard digits > 0, self.current == "]" else {
      self.position = mark
      return
    }
    self.position += 1
    guard self.current == ":" else {
      self.position = mark
      return
    }
    self.position += 1
  }

  private mutating func number() throws(Failure) -> String {
    let start = self.position
    if self.current == "-" { self.position += 1 }
    var digits = 0
    while let character = self.current,
      character.isNumber || character == "." || character == "e" || character == "E"
        || (character == "-" || character == "+")
          && ["e", "E"].contains(self.characters[self.position - 1])
    {
      if character.isNumber { digits += 1 }
      self.position += 1
    }
    guard digits > 0 else { throw self.failure("a digit") }
    return String(self.characters[start..<self.position])
  }

  private mutating func string() throws(Failure) -> String {
    self.position += 1
    var text = ""
    while true {
      guard let character = self.current else {
        throw self.failure("a closing quote")
      }
      self.position += 1
      switch character {
      case "\"":
        return text
      case "\\":
        guard let escaped = self.current else { throw self.failure("an escaped character") }
        self.position += 1
        switch escaped {
        case "n": text.append("\n")
        case "t": text.append("\t")
        case "r": text.append("\r")
        case "0": text.append("\0")
        case "\"", "\\", "'": text.append(escaped)
        case "u":
          try self.expect("{", "\"{\" after \\u")
          let start = self.position
          while let digit = self.current, digit.isHexDigit { self.position += 1 }
          guard
            let scalar = UInt32(String(self.characters[start..<self.position]), radix: 16)
              .flatMap(Unicode.Scalar.init)
          else { throw self.failure("the hexadecimal digits of a Unicode scalar") }
          try self.expect("}", "\"}\" after a Unicode scalar's digits")
          text.unicodeScalars.append(scalar)
        default:
          self.position -= 1
          throw self.failure("an escape: \\n, \\t, \\r, \\0, \\\", \\\\, \\' or \\u{…}")
        }
      default:
        text.append(character)
      }
    }
  }
}
