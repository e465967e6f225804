/// A path to values in the JSON of a state or an action, naming what a recording must not keep.
///
/// Paths are written as the REPL's `print` takes them, with wildcards:
///
/// | path | matches |
/// | --- | --- |
/// | `user.email` | the `email` field of the `user` field |
/// | `todos[*].description` | the `description` of every element of `todos` |
/// | `todos[0]` | everything in the first element |
/// | `login.*` | every field of `login` |
/// | `**.password` | a `password` field at any depth |
///
/// Actions are paths in their JSON as the log writes it: an enum case is a field named after the
/// case, and its unlabelled associated values are `_0`, `_1`, …: `**.passwordChanged` names the
/// payload of every `passwordChanged` case, however deeply the action is nested.
///
/// A path that names an object or array names every string and number inside it.
public struct RedactionPath: Sendable, Hashable, CustomStringConvertible {
  enum Component: Sendable, Hashable {
    case key(String)
    case anyKey
    case index(Int)
    case anyIndex
    case anyDepth
  }

  let components: [Component]

  /// The path as written.
  public let description: String

  /// Parses a path.
  ///
  /// - Throws: ``RedactionPathError`` saying what is wrong and at which character.
  public init(_ text: String) throws {
    self.description = text
    self.components = try Self.parse(text)
  }

  init(components: [Component], description: String) {
    self.components = components
    self.description = description
  }

  /// This path, under a field of the record that holds the value.
  func under(_ field: String) -> RedactionPath {
    RedactionPath(components: [.key(field)] + self.components, description: self.description)
  }

  /// The longest path accepted, in characters: a header may claim anything.
  static let maximumLength = 1_024

  private static func parse(_ text: String) throws -> [Component] {
    let characters = Array(text.prefix(Self.maximumLength + 1))
    guard !characters.isEmpty else {
      throw RedactionPathError(path: text, position: 0, problem: "the path is empty")
    }
    guard characters.count <= Self.maximumLength else {
      throw RedactionPathError(
        path: String(text.prefix(40)) + "…", position: Self.maximumLength,
        problem: "the path is longer than \(Self.maximumLength) characters"
      )
    }
    var components: [Component] = []
    var index = 0
    var expectsName = true
    while index < characters.count {
      let character = characters[index]
      if character == "[" {
        guard let close = characters[index...].firstIndex(of: "]") else {
          throw RedactionPathError(path: text, position: index, problem: "\"[\" is not closed")
        }
        let inside = String(characters[(index + 1)..<close])
        if inside == "*" {
          components.append(.anyIndex)
        } else if let number = Int(inside), number >= 0 {
          components.append(.index(number))
        } else {
          throw RedactionPathError(
            path: text, position: index + 1,
            problem: "an index is a number or *, not \"\(inside)\""
          )
        }
        index = close + 1
        expectsName = false
      } else if character == "." {
        if expectsName || index + 1 == characters.count {
          throw RedactionPathError(
            path: text, position: expectsName ? index : index + 1, problem: "a name is missing"
          )
        }
        index += 1
        expectsName = true
      } else {
        guard expectsName else {
          throw RedactionPathError(
            path: text, position: index, problem: "a \".\" or \"[\" must come before a name"
          )
        }
        var end = index
        while end < characters.count, characters[end] != ".", characters[end] != "[" {
          guard characters[end] != "]" else {
            throw RedactionPathError(path: text, position: end, problem: "\"]\" has no \"[\"")
          }
          end += 1
        }
        let name = String(characters[index..<end])
        switch name {
        case "**": components.append(.anyDepth)
        case "*": components.append(.anyKey)
        default: components.append(.key(name))
        }
        index = end
        expectsName = false
      }
    }
    if expectsName {
      throw RedactionPathError(path: text, position: characters.count, problem: "a name is missing")
    }
    return components
  }

  /// Whether this path names `path` or one of its ancestors.
  func matchesPrefix(of path: [JSONPathStep]) -> Bool {
    self.walk(path, stopAtMatch: true)?.last == true
  }

  /// Whether the path is `**`: every value, at any depth.
  var isAnyDepth: Bool {
    !self.components.isEmpty && self.components.allSatisfy { $0 == .anyDepth }
  }

  /// Whether this path names `path` itself.
  func matchesExactly(_ path: [JSONPathStep]) -> Bool {
    self.walk(path, stopAtMatch: false)?.last == true
  }

  /// Whether this path may name a value below `path`: some of the pattern is left to match.
  func mayMatchBelow(_ path: [JSONPathStep]) -> Bool {
    guard let positions = self.walk(path, stopAtMatch: false) else { return false }
    return positions.dropLast().contains(true)
  }

  /// The positions in the pattern reachable after the steps of `path` (the last one: the whole
  /// pattern matched), or `nil` when none is. With `stopAtMatch`, stops at the first step where
  /// the whole pattern has matched (a prefix of `path`).
  ///
  /// Time linear in both: the reachable positions are kept as a set (a `**` may stand for no
  /// step), rather than tried one by one, which several `**` would make exponential.
  private func walk(_ path: [JSONPathStep], stopAtMatch: Bool) -> [Bool]? {
    let pattern = self.components
    let end = pattern.count
    var current = [Bool](repeating: false, count: end + 1)
    var next = current
    func reach(_ position: Int, in set: inout [Bool]) {
      var position = position
      while position <= end, !set[position] {
        set[position] = true
        guard position < end, case .anyDepth = pattern[position] else { return }
        position += 1
      }
    }
    reach(0, in: &current)
    for step in path {
      if stopAtMatch, current[end] { return current }
      for index in next.indices { next[index] = false }
      var any = false
      for position in 0..<end where current[position] {
        switch (pattern[position], step) {
        case (.anyDepth, _):
          reach(position, in: &next)
          any = true
        case let (.key(name), .key(key)) where name == key:
          reach(position + 1, in: &next)
          any = true
        case let (.index(wanted), .index(index)) where wanted == index:
          reach(position + 1, in: &next)
          any = true
        case (.anyKey, .key), (.anyIndex, .index):
          reach(position + 1, in: &next)
          any = true
        default:
          continue
        }
      }
      guard any else { return nil }
      swap(&current, &next)
    }
    return current
  }
}

/// A redaction path that does not parse.
public struct RedactionPathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path as given.
  public let path: String
  /// The character position of the problem, from 0.
  public let position: Int
  /// What is wrong.
  public let problem: String

  public var description: String {
    """
    The redaction path "\(self.path)" is not valid at character \(self.position + 1): \
    \(self.problem). Write paths as todos[*].title, user.email or **.password.
    """
  }
}

/// What a recording leaves out, and the manifest its header keeps: the paths of the state and of
/// the actions whose strings and numbers are replaced by placeholders before they reach the file.
///
/// A redacted string becomes `"‹redacted N›"` and a redacted number becomes `N`, where `N` counts
/// the distinct values redacted in the recording: equal values get equal placeholders, so a
/// reducer that copies or compares them replays the same. Empty strings, booleans and `null` are
/// kept; so are object keys.
public struct Redactions: Sendable, Hashable {
  /// Paths in the state: the initial state and every checkpoint.
  public var state: [RedactionPath]
  /// Paths in the actions.
  public var actions: [RedactionPath]

  /// No redaction.
  public static let none = Redactions(statePaths: [], actionPaths: [])

  /// Redactions from paths as text.
  ///
  /// - Throws: ``RedactionPathError`` for the first path that does not parse.
  public init(state: [String] = [], actions: [String] = []) throws {
    self.state = try state.map(RedactionPath.init)
    self.actions = try actions.map(RedactionPath.init)
  }

  /// Redactions from parsed paths.
  public init(statePaths: [RedactionPath], actionPaths: [RedactionPath]) {
    self.state = statePaths
    self.actions = actionPaths
  }

  /// Whether nothing is redacted.
  public var isEmpty: Bool {
    self.state.isEmpty && self.actions.isEmpty
  }

  /// These redactions and `other`'s, without repeats.
  public func merging(_ other: Redactions) -> Redactions {
    Redactions(
      statePaths: self.state + other.state.filter { !self.state.contains($0) },
      actionPaths: self.actions + other.actions.filter { !self.actions.contains($0) }
    )
  }

  /// The manifest as the header writes it.
  var manifest: RedactionManifest? {
    self.isEmpty
      ? nil
      : RedactionManifest(
        actions: self.actions.map(\.description), state: self.state.map(\.description)
      )
  }
}

/// The header's `redacted` field.
struct RedactionManifest: Codable, Equatable {
  var actions: [String]
  var state: [String]
}

/// The placeholders handed out so far in one recording: equal values get equal placeholders.
struct RedactionPlaceholders {
  private var numbers: [[UInt8]: Int] = [:]
  private var next: Int
  /// How many values each path redacted, by its description.
  private(set) var hits: [String: Int] = [:]
  /// Whether redacting counts in ``hits``: not while a step's state is redacted again to work
  /// out what it changed.
  var countsHits = true

  /// - Parameter firstNumber: The number of the first new placeholder: above every placeholder
  ///   already in the recording, when more redaction is applied to one.
  init(firstNumber: Int = 1) {
    self.next = firstNumber
  }

  /// The placeholder for a string token (with its quotes) or a number token.
  mutating func placeholder(for token: [UInt8], isString: Bool, path: RedactionPath) -> [UInt8]? {
    if self.countsHits { self.hits[path.description, default: 0] += 1 }
    if isString {
      if token.count == 2 { return nil }  // ""
      if Self.isPlaceholder(token) { return nil }
    }
    let number: Int
    if let known = self.numbers[token] {
      number = known
    } else {
      number = self.next
      self.numbers[token] = number
      self.next += 1
    }
    return isString ? Array("\"‹redacted \(number)›\"".utf8) : Array(String(number).utf8)
  }

  static let placeholderStart = Array("\"‹redacted ".utf8)
  static let placeholderEnd = Array("›\"".utf8)

  static func isPlaceholder(_ token: [UInt8]) -> Bool {
    token.starts(with: Self.placeholderStart)
      && token.suffix(Self.placeholderEnd.count).elementsEqual(Self.placeholderEnd)
  }

  /// The highest placeholder number in some bytes, or 0.
  static func highestNumber(in bytes: UnsafeRawBufferPointer) -> Int {
    let start = Self.placeholderStart.dropFirst()  // without the quote
    var highest = 0
    var index = 0
    let count = bytes.count
    while index + start.count < count {
      if bytes[index] == start.first!,
        bytes[index..<(index + start.count)].elementsEqual(start)
      {
        var cursor = index + start.count
        var value = 0
        while cursor < count, bytes[cursor] >= UInt8(ascii: "0"),
          bytes[cursor] <= UInt8(ascii: "9"),
          value < Int.max / 10 - 10
        {
          value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
          cursor += 1
        }
        highest = max(highest, value)
        index = cursor
      } else {
        index += 1
      }
    }
    return highest
  }
}

extension Redactions {
  /// Whether two encoded states are the same once every value at a redacted state path is left
  /// out: a value the reducer computes there in a replay (from a placeholder, or a constant) cannot
  /// be compared with what the recorder redacted.
  ///
  /// - Returns: `nil` when either is not JSON.
  public func statesAgree(_ recorded: [UInt8], _ replayed: [UInt8]) -> Bool? {
    guard !self.state.isEmpty else { return recorded == replayed }
    do {
      return try JSONRewriter.masking(recorded, paths: self.state)
        == JSONRewriter.masking(replayed, paths: self.state)
    } catch {
      return nil
    }
  }
}
