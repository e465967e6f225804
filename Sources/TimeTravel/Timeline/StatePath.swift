import CustomDump

/// A path into a state, as a user types it: `todos[0].title`, `settings.sortOrder`, `count`.
///
/// Names select stored properties (or enum cases' values), indices select elements of
/// collections, including `IdentifiedArray`s.
public struct StatePath: Hashable, Sendable, CustomStringConvertible {
  /// One step of a path.
  public enum Component: Hashable, Sendable {
    case name(String)
    case index(Int)
  }

  /// The steps.
  public let components: [Component]

  /// Parses a path.
  ///
  /// - Throws: ``StatePathError`` naming the column where the text stops being a path.
  public init(_ text: String) throws {
    var components: [Component] = []
    var characters = Array(text)
    var index = 0
    func fail(_ reason: String) -> StatePathError {
      StatePathError(path: text, column: index + 1, reason: reason)
    }
    if characters.first == "." { characters.removeFirst() }
    while index < characters.count {
      let character = characters[index]
      if character == "[" {
        guard let close = characters[index...].firstIndex(of: "]") else {
          throw fail("\"[\" is not closed")
        }
        guard let value = Int(String(characters[(index + 1)..<close])), value >= 0 else {
          throw fail("an index is a whole number from 0")
        }
        components.append(.index(value))
        index = close + 1
      } else if character == "." {
        guard index > 0, index + 1 < characters.count else { throw fail("a name is missing") }
        index += 1
      } else if character.isLetter || character == "_" {
        var end = index
        while end < characters.count,
          characters[end].isLetter || characters[end].isNumber
            || characters[end] == "_"
        {
          end += 1
        }
        components.append(.name(String(characters[index..<end])))
        index = end
      } else {
        throw fail("unexpected \"\(character)\"")
      }
    }
    self.components = components
  }

  public var description: String {
    var text = ""
    for component in self.components {
      switch component {
      case let .name(name): text += text.isEmpty ? name : ".\(name)"
      case let .index(index): text += "[\(index)]"
      }
    }
    return text
  }

  /// The value at this path in `root`.
  ///
  /// - Throws: ``StatePathError`` naming the first component that does not exist, and what does.
  public func value(in root: Any) throws -> Any {
    var value = root
    var walked: [Component] = []
    for component in self.components {
      let mirror = Mirror(reflecting: Self.unwrapped(value))
      switch component {
      case let .name(name):
        if let child = mirror.children.first(where: { $0.label == name }) {
          value = child.value
        } else if name == "count",
          [.collection, .set, .dictionary].contains(mirror.displayStyle)
        {
          value = mirror.children.count
        } else if mirror.displayStyle == .dictionary,
          let entry = Self.entries(of: mirror).first(where: { $0.key == name })
        {
          value = entry.value
        } else if mirror.displayStyle == .enum, let payload = mirror.children.first,
          payload.label == name
        {
          value = payload.value
        } else {
          let names = Self.names(in: mirror)
          throw StatePathError(
            path: self.description,
            column: nil,
            reason: "\(Self.describe(walked)) has no \"\(name)\""
              + (names.isEmpty ? "" : "; it has \(names.joined(separator: ", "))")
          )
        }
      case let .index(index):
        let elements = Array(mirror.children)
        guard
          mirror.displayStyle == .collection || mirror.displayStyle == .set
            || !elements.isEmpty && elements.allSatisfy({ $0.label == nil })
        else {
          throw StatePathError(
            path: self.description, column: nil,
            reason: "\(Self.describe(walked)) is not a collection"
          )
        }
        guard index < elements.count else {
          throw StatePathError(
            path: self.description, column: nil,
            reason:
              "\(Self.describe(walked)) has \(elements.count) elements; [\(index)] is past the end"
          )
        }
        value = elements[index].value
      }
      walked.append(component)
    }
    return value
  }

  /// The value at this path in `root`, dumped.
  public func dump(in root: Any) throws -> String {
    String(customDumping: try self.value(in: root))
  }

  /// The paths that complete `text`, a path being typed, in `root`: `todos[0].ti` completes to
  /// `todos[0].title`. Empty when `text` does not lead anywhere in `root`.
  public static func completions(of text: String, in root: Any) -> [String] {
    let separator = text.lastIndex { $0 == "." || $0 == "[" || $0 == "]" }
    if let separator, text[separator] != "." { return [] }
    let prefix = separator.map { String(text[..<$0]) } ?? ""
    let partial = separator.map { String(text[text.index(after: $0)...]) } ?? text
    let parent: Any
    do {
      parent = prefix.isEmpty ? root : try StatePath(prefix).value(in: root)
    } catch {
      return []
    }
    let names = Self.names(in: Mirror(reflecting: Self.unwrapped(parent)))
    return names.filter { $0.hasPrefix(partial) }.map { prefix.isEmpty ? $0 : "\(prefix).\($0)" }
  }

  /// The names a path can take next in a value described by `mirror`.
  private static func names(in mirror: Mirror) -> [String] {
    if mirror.displayStyle == .dictionary {
      return Self.entries(of: mirror).map(\.key).sorted()
    }
    return mirror.children.compactMap(\.label)
  }

  /// The entries of a dictionary whose keys are strings.
  static func entries(of mirror: Mirror) -> [(key: String, value: Any)] {
    mirror.children.compactMap { child in
      let pair = Array(Mirror(reflecting: child.value).children)
      guard pair.count == 2, let key = pair[0].value as? String else { return nil }
      return (key, pair[1].value)
    }
  }

  static func unwrapped(_ value: Any) -> Any {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional, let some = mirror.children.first {
      return some.value
    }
    return value
  }

  private static func describe(_ components: [Component]) -> String {
    components.isEmpty ? "the state" : "\"\(StatePath(components: components))\""
  }

  init(components: [Component]) {
    self.components = components
  }
}

/// A path that does not parse, or that leads nowhere in a state.
public struct StatePathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path as given.
  public let path: String
  /// The column (from 1) where parsing failed, when it did.
  public let column: Int?
  /// What is wrong.
  public let reason: String

  /// Creates an error.
  public init(path: String, column: Int?, reason: String) {
    self.path = path
    self.column = column
    self.reason = reason
  }

  public var description: String {
    if let column {
      return "\"\(self.path)\" is not a state path (column \(column)): \(self.reason)."
    }
    return "\"\(self.path)\": \(self.reason)."
  }
}
