import CustomDump
import Foundation

/// A path into a state, as a user types it: `todos[0].title`, `settings.sortOrder`, `count`.
///
/// Names select stored properties (or enum cases' values), indices select elements of
/// collections, including `IdentifiedArray`s and the screens of a `StackState`, and `[id: …]`
/// selects an element by its identity: `path[id: 0].detail.name`, `todos[id: 5A1…]`. A
/// property wrapper's value is named as the property is: `destination` for `@Presents var
/// destination`.
public struct StatePath: Hashable, Sendable, CustomStringConvertible {
  /// One step of a path.
  public enum Component: Hashable, Sendable {
    case name(String)
    case index(Int)
    case id(String)
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
        let inside = String(characters[(index + 1)..<close])
        if inside.hasPrefix("id:") {
          let id = inside.dropFirst(3).trimmingCharacters(in: .whitespaces)
          guard !id.isEmpty else { throw fail("an identity is missing after \"id:\"") }
          components.append(.id(id))
          index = close + 1
          continue
        }
        guard let value = Int(String(characters[(index + 1)..<close])), value >= 0 else {
          throw fail("an index is a whole number from 0")
        }
        components.append(.index(value))
        index = close + 1
      } else if character == "." {
        guard index > 0, index + 1 < characters.count else { throw fail("a name is missing") }
        index += 1
      } else if character == "@" {
        // NB: `@count`, a collection's size: spelt apart from any member a state may name
        // `count` (a JSON object's, a struct's), as key-value coding spells it.
        let name = String(characters[index...].prefix { $0 == "@" || $0.isLetter })
        guard name == Self.sizeName else {
          throw fail(
            "\"\(name)\" is not a path's word; \"\(Self.sizeName)\" is a collection's size")
        }
        components.append(.name(name))
        index += name.count
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
      case let .id(id): text += "[id: \(id)]"
      }
    }
    return text
  }

  /// The word a path spells a collection's size with, wherever it is: `todos.@count`.
  public static let sizeName = "@count"

  /// The value at this path in `root`.
  ///
  /// - Throws: ``StatePathError`` naming the first component that does not exist, and what does.
  public func value(in root: Any) throws -> Any {
    var value = root
    var walked: [Component] = []
    for component in self.components {
      if case .name(Self.sizeName) = component {
        let mirror = Self.mirror(of: value)
        guard [.collection, .set, .dictionary].contains(mirror.displayStyle) else {
          throw StatePathError(
            path: self.description, column: nil,
            reason: "\(Self.describe(walked)) is not a collection, so it has no \(Self.sizeName)")
        }
        value = mirror.children.count
        walked.append(component)
        continue
      }
      // NB: An element of an array, an identified array or a stack, by its position, without
      // building a mirror of every element: what a search does at every step.
      if case let .index(index) = component,
        let indexed = Self.unwrapped(value) as? any _PathIndexable,
        let element = indexed._element(at: index)
      {
        value = element
        walked.append(component)
        continue
      }
      if case let .name(name) = component, let property = Self.storedProperty(name, of: value) {
        value = property
        walked.append(component)
        continue
      }
      let mirror = Self.mirror(of: value)
      switch component {
      case let .name(name):
        if let child = mirror.children.first(where: { $0.label == name })
          ?? mirror.children.first(where: { $0.label == "_" + name })
        {
          value = child.value
        } else if mirror.displayStyle == .dictionary,
          let entry = Self.entries(of: mirror).first(where: { $0.key == name })
        {
          // NB: A member a JSON object (a read-only replay's state) or a dictionary names,
          // before any word a collection answers to: `count` is the state's `count`.
          value = entry.value
        } else if name == "count", [.collection, .set].contains(mirror.displayStyle) {
          // NB: An array or a set has no members of its own: `todos.count` is its size, as
          // `todos.@count` is.
          value = mirror.children.count
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
        value =
          mirror.displayStyle == .dictionary
          ? Self.pair(elements[index].value)?.value ?? elements[index].value
          : elements[index].value
      case let .id(id):
        guard let element = Self.element(identified: id, in: mirror) else {
          let ids = Self.identities(in: mirror)
          throw StatePathError(
            path: self.description, column: nil,
            reason: ids == nil
              ? "\(Self.describe(walked)) has no elements with identities"
              : "\(Self.describe(walked)) has no element with identity \(id)"
                + (ids!.isEmpty ? "; it is empty" : "; it has \(ids!.joined(separator: ", "))")
          )
        }
        value = element
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
    let names = Self.names(in: Self.mirror(of: parent))
    return names.filter { $0.hasPrefix(partial) }.map { prefix.isEmpty ? $0 : "\(prefix).\($0)" }
  }

  /// The names a path can take next in a value described by `mirror`.
  private static func names(in mirror: Mirror) -> [String] {
    if mirror.displayStyle == .dictionary {
      return Self.entries(of: mirror).map(\.key).sorted()
    }
    let labels = mirror.children.compactMap(\.label)
    // A property wrapper's storage, `_destination`, is named as its property.
    return labels.map { label in
      label.hasPrefix("_") && !labels.contains(String(label.dropFirst()))
        ? String(label.dropFirst()) : label
    }
  }

  /// How a value is walked: as its dump shows it (a presentation as what it presents, a stack as
  /// its screens), an optional as what it holds.
  static func mirror(of value: Any) -> Mirror {
    var value = Self.unwrapped(value)
    while let representable = value as? any CustomDumpRepresentable {
      value = Self.unwrapped(representable.customDumpValue)
    }
    if let reflectable = value as? any CustomDumpReflectable {
      return reflectable.customDumpMirror
    }
    return Mirror(reflecting: value)
  }

  /// A dictionary entry's key and value.
  static func pair(_ entry: Any) -> (key: Any, value: Any)? {
    let pair = Array(Mirror(reflecting: entry).children)
    return pair.count == 2 ? (pair[0].value, pair[1].value) : nil
  }

  /// The identities of a collection's elements (a stack's screens, or `Identifiable` elements),
  /// as a path writes them; `nil` when its elements have none.
  private static func identities(in mirror: Mirror) -> [String]? {
    if mirror.displayStyle == .dictionary {
      return mirror.children.compactMap { Self.pair($0.value).map { "\($0.key)" } }
    }
    guard mirror.displayStyle == .collection || mirror.displayStyle == .set else { return nil }
    let ids = mirror.children.compactMap { child -> String? in
      (child.value as? any Identifiable).map { "\($0.id)" }
    }
    return ids.count == mirror.children.count ? ids : nil
  }

  /// The element whose identity is written `id`: `0` or `#0` for a screen, a UUID in any case.
  private static func element(identified id: String, in mirror: Mirror) -> Any? {
    func matches(_ identity: String) -> Bool {
      identity.caseInsensitiveCompare(id) == .orderedSame || identity == "#" + id
    }
    if mirror.displayStyle == .dictionary {
      return mirror.children.lazy.compactMap { Self.pair($0.value) }
        .first { matches("\($0.key)") }?.value
    }
    return mirror.children.first { child in
      (child.value as? any Identifiable).map { matches("\($0.id)") } ?? false
    }?.value
  }

  /// The entries of a dictionary whose keys are strings.
  static func entries(of mirror: Mirror) -> [(key: String, value: Any)] {
    mirror.children.compactMap { child in
      Self.pair(child.value).flatMap { pair in (pair.key as? String).map { ($0, pair.value) } }
    }
  }

  /// What an optional holds; any other value, or `nil`, as it is.
  static func unwrapped(_ value: Any) -> Any {
    // NB: Not by a mirror: a collection's mirror copies every element, at every step a
    // search reads the path.
    if let optional = value as? any _StatePathOptional, let some = optional._wrapped {
      return some
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

/// An optional, told apart without a mirror.
protocol _StatePathOptional {
  var _wrapped: Any? { get }
}

extension Optional: _StatePathOptional {
  var _wrapped: Any? { self.map { $0 as Any } }
}

/// A collection a path reaches an element of by its position directly: its elements in the order
/// its dump lists them.
protocol _PathIndexable {
  func _element(at index: Int) -> Any?
}

extension Array: _PathIndexable {
  func _element(at index: Int) -> Any? {
    self.indices.contains(index) ? self[index] : nil
  }
}
