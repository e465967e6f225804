/// One operation of an RFC 6902 JSON Patch: what an action changed in the state, as an action
/// record's `update` holds it. Standard tools apply a list of them (`jq`, `python -m jsonpatch`,
/// any JSON Patch library).
///
/// ```json
/// {"op":"replace","path":"/todos/0/title","value":"Buy milk"}
/// ```
public struct JSONPatchOperation: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What the operation does.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// Adds a member to an object, or inserts an element into an array (`-` appends).
    case add
    /// Removes a member or an element.
    case remove
    /// Replaces a value; the empty path replaces the whole document.
    case replace
    /// Moves the value at `from` to `path`: an element of an array reordered.
    case move
  }

  /// What the operation does.
  public var op: Kind
  /// Where, as reference tokens (the path `/todos/0` is `["todos", "0"]`); empty for the whole
  /// document.
  public var path: [String]
  /// The value added or put in place; `nil` for a removal or a move.
  public var value: JSONValue?
  /// Where a move takes its value from; `nil` for the other operations.
  public var from: [String]?

  /// An operation.
  public init(_ op: Kind, _ path: [String], _ value: JSONValue? = JSONValue?.none) {
    self.op = op
    self.path = path
    self.value = value
  }

  /// A move of the value at `from` to `path`.
  public static func move(from: [String], to path: [String]) -> Self {
    var operation = Self(.move, path)
    operation.from = from
    return operation
  }

  private enum CodingKeys: String, CodingKey {
    case from, op, path, value
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func tokens(_ key: CodingKeys) throws -> [String] {
      let pointer = try container.decode(String.self, forKey: key)
      guard let tokens = Self.tokens(of: pointer) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container,
          debugDescription:
            "\"\(pointer)\" is not a JSON Pointer: it must be empty or start with \"/\""
        )
      }
      return tokens
    }
    self.op = try container.decode(Kind.self, forKey: .op)
    self.path = try tokens(.path)
    if self.op == .move {
      self.from = try tokens(.from)
      return
    }
    // NB: Not `decodeIfPresent`, which reads `null` as absent: `null` is a value to put. A
    // removal has none.
    self.value =
      self.op != .remove && container.contains(.value)
      ? try container.decode(JSONValue.self, forKey: .value) : JSONValue?.none
    if self.op != .remove, case .none = self.value {
      throw DecodingError.keyNotFound(
        CodingKeys.value,
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "an \"\(self.op.rawValue)\" operation needs a value"
        )
      )
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if self.op == .move {
      try container.encode(Self.pointer(self.from ?? []), forKey: .from)
    }
    try container.encode(self.op, forKey: .op)
    try container.encode(self.pointer, forKey: .path)
    if self.op != .remove, self.op != .move {
      try container.encode(self.value ?? .null, forKey: .value)
    }
  }

  /// The path as a JSON Pointer (RFC 6901): `/todos/0/title`, `~1` for `/` and `~0` for `~`.
  public var pointer: String {
    Self.pointer(self.path)
  }

  static func pointer(_ path: [String]) -> String {
    var pointer = ""
    for token in path {
      pointer.append("/")
      // NB: Most tokens hold neither `~` nor `/`, and are written as they are.
      guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
      else {
        pointer.append(token)
        continue
      }
      pointer.append(
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1"))
    }
    return pointer
  }

  /// The reference tokens of a JSON Pointer; `nil` when it is not one.
  static func tokens(of pointer: String) -> [String]? {
    if pointer.isEmpty { return [] }
    guard pointer.hasPrefix("/") else { return nil }
    return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
      $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
  }

  public var description: String {
    switch self.op {
    case .remove: "remove \(self.pointer)"
    case .move: "move \(Self.pointer(self.from ?? [])) to \(self.pointer)"
    case .add, .replace: "\(self.op.rawValue) \(self.pointer) \((self.value ?? .null).text)"
    }
  }
}

/// Why a patch does not apply to a document.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The operation's position in the patch, from 0.
  public let operation: Int
  /// Its path, as a JSON Pointer.
  public let pointer: String
  /// What is wrong.
  public let reason: String

  public var description: String {
    "operation \(self.operation) (\(self.pointer.isEmpty ? "the whole document" : self.pointer)) does not apply: \(self.reason)"
  }
}

extension JSONValue {
  /// The operations that turn `self` into `other`: members and elements compared in place, an
  /// array that grew or shrank changed where its ends stop agreeing. Empty when they are equal.
  public func changes(to other: JSONValue) -> [JSONPatchOperation] {
    var operations: [JSONPatchOperation] = []
    Self.diff(self, other, path: [], into: &operations)
    return operations
  }

  private static func diff(
    _ old: JSONValue, _ new: JSONValue, path: [String], into operations: inout [JSONPatchOperation]
  ) {
    guard old != new else { return }
    switch (old, new) {
    case let (.object(old), .object(new)):
      for key in old.keys.sorted() where !new.keys.contains(key) {
        operations.append(JSONPatchOperation(.remove, path + [key]))
      }
      for (key, value) in new.sorted(by: { $0.key < $1.key }) {
        if let before = old[key] {
          Self.diff(before, value, path: path + [key], into: &operations)
        } else {
          operations.append(JSONPatchOperation(.add, path + [key], value))
        }
      }
    case let (.array(old), .array(new)):
      Self.arrayChanges(
        old, new, path: path, into: &operations, same: ==,
        isPermutation: Self.isPermutation(_:of:),
        diff: { Self.diff($0, $1, path: $2, into: &$3) }, value: { $0 })
    default:
      operations.append(JSONPatchOperation(.replace, path, new))
    }
  }

  /// The operations that turn the array `old` into `new`, whatever stands for their elements
  /// (values, or the places of values in a text): the common prefix and suffix stay; the same
  /// elements in another order between them (a list sorted again) are moves, not rewrites;
  /// otherwise what lies between is compared pairwise, then the rest removed (from the end, so
  /// indices hold) or added.
  static func arrayChanges<Element>(
    _ old: [Element], _ new: [Element], path: [String],
    into operations: inout [JSONPatchOperation],
    same: (Element, Element) -> Bool,
    isPermutation: ([Element], [Element]) -> Bool,
    diff: (Element, Element, [String], inout [JSONPatchOperation]) throws -> Void,
    value: (Element) throws -> JSONValue
  ) rethrows {
    var prefix = 0
    while prefix < min(old.count, new.count), same(old[prefix], new[prefix]) { prefix += 1 }
    var suffix = 0
    while suffix < min(old.count, new.count) - prefix,
      same(old[old.count - 1 - suffix], new[new.count - 1 - suffix])
    {
      suffix += 1
    }
    let oldMiddle = Array(old[prefix..<(old.count - suffix)])
    let newMiddle = Array(new[prefix..<(new.count - suffix)])
    if oldMiddle.count == newMiddle.count, oldMiddle.count > 1,
      isPermutation(oldMiddle, newMiddle)
    {
      var working = oldMiddle
      for target in working.indices where !same(working[target], newMiddle[target]) {
        guard
          let source = working[(target + 1)...].firstIndex(where: { same($0, newMiddle[target]) })
        else { continue }
        operations.append(
          .move(from: path + [String(prefix + source)], to: path + [String(prefix + target)]))
        working.insert(working.remove(at: source), at: target)
      }
      return
    }
    let paired = min(oldMiddle.count, newMiddle.count)
    for offset in 0..<paired {
      try diff(oldMiddle[offset], newMiddle[offset], path + [String(prefix + offset)], &operations)
    }
    if oldMiddle.count > paired {
      for index in ((prefix + paired)..<(prefix + oldMiddle.count)).reversed() {
        operations.append(JSONPatchOperation(.remove, path + [String(index)]))
      }
    }
    for index in (prefix + paired)..<(prefix + newMiddle.count) {
      operations.append(JSONPatchOperation(.add, path + [String(index)], try value(new[index])))
    }
  }

  /// Whether two arrays hold the same elements, as many times each.
  private static func isPermutation(_ left: [JSONValue], of right: [JSONValue]) -> Bool {
    var counts: [JSONValue: Int] = [:]
    for element in left { counts[element, default: 0] += 1 }
    for element in right {
      guard let count = counts[element], count > 0 else { return false }
      counts[element] = count - 1
    }
    return true
  }

  /// The document with `operations` applied in order.
  ///
  /// - Throws: ``JSONPatchError`` naming the first operation that does not apply.
  public func applying(_ operations: [JSONPatchOperation]) throws -> JSONValue {
    var document = self
    for (index, operation) in operations.enumerated() {
      do {
        if operation.op == .move {
          // A move is a removal and an add of the value removed.
          let from = operation.from ?? []
          guard let value = document.value(at: from[...]) else {
            throw PatchFailure(
              text: "there is nothing at \(JSONPatchOperation.pointer(from)) to move")
          }
          try document.apply(JSONPatchOperation(.remove, from), at: from[...])
          try document.apply(
            JSONPatchOperation(.add, operation.path, value), at: operation.path[...])
        } else {
          try document.apply(operation, at: operation.path[...])
        }
      } catch let reason as PatchFailure {
        throw JSONPatchError(operation: index, pointer: operation.pointer, reason: reason.text)
      }
    }
    return document
  }

  /// The value at a JSON Pointer (`/todos/0/title`), if there is one.
  public func value(atPointer pointer: String) -> JSONValue? {
    JSONPatchOperation.tokens(of: pointer).flatMap { self.value(at: $0[...]) }
  }

  /// The value at a path, if there is one.
  private func value(at path: ArraySlice<String>) -> JSONValue? {
    guard let token = path.first else { return self }
    switch self {
    case .object(let members):
      return members.keys.contains(token) ? members[token]?.value(at: path.dropFirst()) : nil
    case .array(let elements):
      guard let index = Int(token), elements.indices.contains(index) else { return nil }
      return elements[index].value(at: path.dropFirst())
    default:
      return nil
    }
  }

  private struct PatchFailure: Error {
    let text: String
  }

  private mutating func apply(
    _ operation: JSONPatchOperation, at path: ArraySlice<String>
  ) throws {
    guard let token = path.first else {
      guard operation.op != .remove else {
        throw PatchFailure(text: "the whole document cannot be removed")
      }
      self = operation.value ?? .null
      return
    }
    let isLast = path.count == 1
    switch self {
    case var .object(members):
      if isLast {
        switch operation.op {
        case .add:
          members[token] = operation.value ?? .null
        case .replace:
          guard members.keys.contains(token) else {
            throw PatchFailure(text: "there is no member \"\(token)\"")
          }
          members[token] = operation.value ?? .null
        case .remove:
          guard members.keys.contains(token) else {
            throw PatchFailure(text: "there is no member \"\(token)\"")
          }
          members.removeValue(forKey: token)
        case .move:
          throw PatchFailure(text: "a move is applied as a removal and an add")
        }
      } else {
        guard members.keys.contains(token), var child = members[token] else {
          throw PatchFailure(text: "there is no member \"\(token)\"")
        }
        // NB: Released from the parents first, so that the child is changed in place.
        self = .null
        members[token] = .null
        try child.apply(operation, at: path.dropFirst())
        members[token] = child
      }
      self = .object(members)
    case var .array(elements):
      let index: Int
      if token == "-", isLast, operation.op == .add {
        index = elements.count
      } else {
        guard let parsed = Int(token), parsed >= 0,
          parsed < elements.count || (isLast && operation.op == .add && parsed == elements.count)
        else {
          throw PatchFailure(text: "\"\(token)\" is not an index of an array of \(elements.count)")
        }
        index = parsed
      }
      if isLast {
        switch operation.op {
        case .add: elements.insert(operation.value ?? .null, at: index)
        case .replace: elements[index] = operation.value ?? .null
        case .remove: elements.remove(at: index)
        case .move: throw PatchFailure(text: "a move is applied as a removal and an add")
        }
      } else {
        var child = elements[index]
        self = .null
        elements[index] = .null
        try child.apply(operation, at: path.dropFirst())
        elements[index] = child
      }
      self = .array(elements)
    default:
      throw PatchFailure(
        text: "\"\(token)\" is inside a value that is neither an object nor an array")
    }
  }
}
