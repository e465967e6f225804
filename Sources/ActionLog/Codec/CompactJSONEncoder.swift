// NB: Over 400 lines on purpose: the encoder, its tree and its three containers share the
// tree's internals, which stay private to this file.

import Foundation

/// Encodes values as the compact, key-sorted JSON that Foundation's `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]` and its default strategies, byte for byte, with much
/// less work.
///
/// Foundation's encoder builds a tree of boxed values (numbers as strings, objects as
/// dictionaries, an encoder object per nested value) before it writes anything. This one keeps
/// the tree in two flat arrays, writes numbers and strings straight into one byte buffer as
/// they are encoded, and sorts each object's keys only when it writes the result.
///
/// It gives up, returning `nil`, on what it does not write the way Foundation would: a value
/// whose `encode(to:)` throws, a super-encoder, a nested container reopened for a key already
/// used, a container nested deeper than Foundation allows, a top-level value that encodes
/// nothing, a non-finite floating-point number, 128-bit integers. The caller then encodes with
/// Foundation, which writes the same bytes or throws its own error.
struct CompactJSONEncoder {
  /// The value's JSON, or `nil` when Foundation must encode it.
  func encode<T: Encodable>(_ value: T) -> [UInt8]? {
    let tree = JSONTree()
    do {
      try tree.encode(value, into: tree.root)
    } catch {
      return nil
    }
    guard !tree.isUnsupported, tree.nodes[tree.root].kind != .unset else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(tree.bytes.count + tree.members.count * 16 + 16)
    tree.write(tree.root, into: &output)
    return output
  }
}

/// The values encoded so far: a tree of nodes whose leaves are ranges of ``bytes``.
final class JSONTree: Encoder {
  struct Node {
    enum Kind: UInt8 {
      /// Not written yet; written as `{}` (what Foundation writes for a value that encodes
      /// nothing) unless something is encoded into it.
      case unset
      /// The JSON in `bytes[start..<end]`.
      case raw
      case object
      case array
    }

    var kind: Kind = .unset
    var start = 0
    var end = 0
    /// The first and last of an object's or array's members, in the order encoded; -1 if none.
    var first = -1
    var last = -1
    var count = 0
    /// The member this node is the value of; -1 for the root.
    var parent: Int
    var depth: Int
  }

  struct Member {
    /// The object or array the member belongs to.
    var owner: Int
    /// The key in an object; `nil` in an array.
    var key: String?
    /// The position in an array.
    var index: Int
    /// The member's value.
    var node: Int
    var next = -1
  }

  /// The most containers Foundation writes nested in one another: it refuses a 512th.
  static let maximumDepth = 511

  // NB: One thread uses a tree, and no access to these overlaps another: the dynamic checks
  // that accesses to a class's properties do not overlap cost as much as the encoding itself.
  @exclusivity(unchecked) var nodes: [Node] = [Node(parent: -1, depth: 0)]
  @exclusivity(unchecked) var members: [Member] = []
  @exclusivity(unchecked) var bytes: [UInt8] = []
  @exclusivity(unchecked) var isUnsupported = false
  /// The node that `singleValueContainer()` and `container(keyedBy:)` refer to.
  @exclusivity(unchecked) var current = 0
  let root = 0

  init() {
    self.bytes.reserveCapacity(256)
    self.nodes.reserveCapacity(16)
    self.members.reserveCapacity(16)
  }

  // MARK: - Encoder

  var codingPath: [any CodingKey] { self.codingPath(of: self.current) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    self.becomeContainer(self.current, .object)
    return KeyedEncodingContainer(KeyedContainer<Key>(tree: self, node: self.current))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    self.becomeContainer(self.current, .array)
    return UnkeyedContainer(tree: self, node: self.current)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(tree: self, node: self.current)
  }

  // MARK: - Building

  /// Makes `node` an object or array; asking again for the same kind goes on with it.
  func becomeContainer(_ node: Int, _ kind: Node.Kind) {
    switch self.nodes[node].kind {
    case .unset:
      self.nodes[node].kind = kind
      if self.nodes[node].depth >= Self.maximumDepth { self.isUnsupported = true }
    case kind:
      break
    default:
      self.isUnsupported = true
    }
  }

  /// Adds a member to the object or array `node`, with a fresh node for its value.
  func addMember(to node: Int, key: String?) -> Int {
    let child = self.nodes.count
    let memberIndex = self.members.count
    self.nodes.append(Node(parent: memberIndex, depth: self.nodes[node].depth + 1))
    self.members.append(Member(owner: node, key: key, index: self.nodes[node].count, node: child))
    if self.nodes[node].last >= 0 {
      self.members[self.nodes[node].last].next = memberIndex
    } else {
      self.nodes[node].first = memberIndex
    }
    self.nodes[node].last = memberIndex
    self.nodes[node].count += 1
    return child
  }

  /// Whether the object `node` already has a member for `key`.
  func hasMember(_ node: Int, key: String) -> Bool {
    var member = self.nodes[node].first
    while member >= 0 {
      if self.members[member].key == key { return true }
      member = self.members[member].next
    }
    return false
  }

  /// Writes raw JSON as the value of `node`, which must not have one yet.
  @inline(__always)
  func setRaw(_ node: Int, _ body: (inout [UInt8]) -> Void) {
    guard self.nodes[node].kind == .unset else {
      self.isUnsupported = true
      return
    }
    let start = self.bytes.count
    body(&self.bytes)
    self.nodes[node].kind = .raw
    self.nodes[node].start = start
    self.nodes[node].end = self.bytes.count
  }

  /// Writes a floating-point number as the value of `node`; throws at a non-finite one, which
  /// Foundation refuses.
  func setFloatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ node: Int, _ value: F
  ) throws {
    var isFinite = true
    self.setRaw(node) { isFinite = Self.writeFloatingPoint(value, into: &$0) }
    if !isFinite { throw CompactJSONUnsupported() }
  }

  /// Encodes `value` as the value of `node`.
  func encode<T: Encodable>(_ value: T, into node: Int) throws {
    if T.self == UUID.self {
      // NB: What `UUID.encode(to:)` writes, without `uuidString`'s formatted printing.
      let uuid = unsafeBitCast(value, to: UUID.self)
      self.setRaw(node) { Self.writeUUID(uuid, into: &$0) }
      return
    }
    // NB: The types Foundation's encoder writes in its own way, with its default strategies.
    if T.self == Data.self, let data = value as? Data {
      let text = data.base64EncodedString()
      self.setRaw(node) { Self.writeString(text, into: &$0) }
      return
    }
    if T.self == URL.self, let url = value as? URL {
      let text = url.absoluteString
      self.setRaw(node) { Self.writeString(text, into: &$0) }
      return
    }
    if T.self == Decimal.self, let decimal = value as? Decimal {
      let text = decimal.description
      self.setRaw(node) { $0.append(contentsOf: text.utf8) }
      return
    }
    if #available(macOS 15.0, *), T.self == Int128.self || T.self == UInt128.self {
      self.isUnsupported = true
      return
    }
    let saved = self.current
    self.current = node
    defer { self.current = saved }
    try value.encode(to: self)
  }

  // MARK: - Writing

  /// Writes the JSON of `node` and everything under it.
  func write(_ node: Int, into output: inout [UInt8]) {
    let current = self.nodes[node]
    switch current.kind {
    case .unset:
      output.append(UInt8(ascii: "{"))
      output.append(UInt8(ascii: "}"))
    case .raw:
      self.bytes.withUnsafeBufferPointer {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[current.start..<current.end]))
      }
    case .array:
      output.append(UInt8(ascii: "["))
      var member = current.first
      var isFirst = true
      while member >= 0 {
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
        self.write(self.members[member].node, into: &output)
        member = self.members[member].next
      }
      output.append(UInt8(ascii: "]"))
    case .object:
      output.append(UInt8(ascii: "{"))
      var order: [Int] = []
      order.reserveCapacity(current.count)
      var member = current.first
      while member >= 0 {
        order.append(member)
        member = self.members[member].next
      }
      // Sorted by the keys' UTF-8 bytes, as Foundation sorts them; for a key set twice, the
      // last value wins, as in Foundation's dictionary.
      order.sort { lhs, rhs in
        let left = self.members[lhs].key ?? ""
        let right = self.members[rhs].key ?? ""
        if left == right { return lhs < rhs }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
      }
      var isFirst = true
      for (position, member) in order.enumerated() {
        let key = self.members[member].key ?? ""
        if position + 1 < order.count, self.members[order[position + 1]].key ?? "" == key {
          continue
        }
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
        Self.writeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
        self.write(self.members[member].node, into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// A JSON string, escaped as Foundation escapes it without escaping slashes.
  static func writeString(_ string: String, into output: inout [UInt8]) {
    JSONString.write(string, into: &output)
  }

  /// A UUID as `uuidString` writes it, in quotes: upper-case hexadecimal in groups of 8, 4, 4,
  /// 4 and 12 digits.
  static func writeUUID(_ uuid: UUID, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    withUnsafeBytes(of: uuid.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          output.append(UInt8(ascii: "-"))
        }
        output.append(Self.upperHexDigit(byte >> 4))
        output.append(Self.upperHexDigit(byte & 0x0F))
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func upperHexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  static func writeInteger(_ value: some FixedWidthInteger, into output: inout [UInt8]) {
    guard value != 0 else {
      output.append(UInt8(ascii: "0"))
      return
    }
    // Digits of the magnitude, least significant first, as a negative number so that `.min`
    // fits.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      if value < 0 {
        var rest = Int64(value)
        while rest != 0 {
          buffer[count] = UInt8(ascii: "0") + UInt8(-(rest % 10))
          rest /= 10
          count += 1
        }
        output.append(UInt8(ascii: "-"))
      } else {
        var rest = UInt64(value)
        while rest != 0 {
          buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
          count += 1
        }
      }
      while count > 0 {
        count -= 1
        output.append(buffer[count])
      }
    }
  }

  /// A finite floating-point number as Foundation writes it: its description, without a
  /// trailing `.0`; `false` for a non-finite one, which Foundation refuses.
  static func writeFloatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ value: F, into output: inout [UInt8]
  ) -> Bool {
    guard value.isFinite else { return false }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    output.append(contentsOf: text.utf8)
    return true
  }

  func codingPath(of node: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var member = self.nodes[node].parent
    while member >= 0 {
      let entry = self.members[member]
      path.append(entry.key.map { JSONKey(stringValue: $0) } ?? JSONKey(intValue: entry.index))
      member = self.nodes[entry.owner].parent
    }
    return path.reversed()
  }
}

/// A coding key for coding paths.
private struct JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }
}

// MARK: - Containers

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let tree: JSONTree
  let node: Int

  var codingPath: [any CodingKey] { self.tree.codingPath(of: self.node) }

  @inline(__always)
  private func raw(_ key: Key, _ body: (inout [UInt8]) -> Void) {
    let child = self.tree.addMember(to: self.node, key: key.stringValue)
    self.tree.setRaw(child, body)
  }

  mutating func encodeNil(forKey key: Key) throws {
    self.raw(key) { $0.append(contentsOf: "null".utf8) }
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    self.raw(key) { $0.append(contentsOf: (value ? "true" : "false").utf8) }
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    self.raw(key) { JSONTree.writeString(value, into: &$0) }
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try self.floatingPoint(value, key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try self.floatingPoint(value, key)
  }
  private func floatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ value: F, _ key: Key
  ) throws {
    try self.tree.setFloatingPoint(self.tree.addMember(to: self.node, key: key.stringValue), value)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { self.integer(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { self.integer(value, key) }
  private func integer(_ value: some FixedWidthInteger, _ key: Key) {
    self.raw(key) { JSONTree.writeInteger(value, into: &$0) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let child = self.tree.addMember(to: self.node, key: key.stringValue)
    try self.tree.encode(value, into: child)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      KeyedContainer<NestedKey>(tree: self.tree, node: self.nested(key, .object)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    UnkeyedContainer(tree: self.tree, node: self.nested(key, .array))
  }

  /// A member for a nested container. Foundation merges a container reopened for a key into
  /// what the key holds; this encoder gives up instead.
  private func nested(_ key: Key, _ kind: JSONTree.Node.Kind) -> Int {
    let name = key.stringValue
    if self.tree.hasMember(self.node, key: name) { self.tree.isUnsupported = true }
    let child = self.tree.addMember(to: self.node, key: name)
    self.tree.becomeContainer(child, kind)
    return child
  }

  mutating func superEncoder() -> any Encoder {
    self.tree.isUnsupported = true
    return JSONTree()
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    self.tree.isUnsupported = true
    return JSONTree()
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let tree: JSONTree
  let node: Int

  var codingPath: [any CodingKey] { self.tree.codingPath(of: self.node) }
  var count: Int { self.tree.nodes[self.node].count }

  @inline(__always)
  private func raw(_ body: (inout [UInt8]) -> Void) {
    let child = self.tree.addMember(to: self.node, key: nil)
    self.tree.setRaw(child, body)
  }

  mutating func encodeNil() throws { self.raw { $0.append(contentsOf: "null".utf8) } }
  mutating func encode(_ value: Bool) throws {
    self.raw { $0.append(contentsOf: (value ? "true" : "false").utf8) }
  }
  mutating func encode(_ value: String) throws {
    self.raw { JSONTree.writeString(value, into: &$0) }
  }
  mutating func encode(_ value: Double) throws { try self.floatingPoint(value) }
  mutating func encode(_ value: Float) throws { try self.floatingPoint(value) }
  private func floatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
    try self.tree.setFloatingPoint(self.tree.addMember(to: self.node, key: nil), value)
  }
  mutating func encode(_ value: Int) throws { self.integer(value) }
  mutating func encode(_ value: Int8) throws { self.integer(value) }
  mutating func encode(_ value: Int16) throws { self.integer(value) }
  mutating func encode(_ value: Int32) throws { self.integer(value) }
  mutating func encode(_ value: Int64) throws { self.integer(value) }
  mutating func encode(_ value: UInt) throws { self.integer(value) }
  mutating func encode(_ value: UInt8) throws { self.integer(value) }
  mutating func encode(_ value: UInt16) throws { self.integer(value) }
  mutating func encode(_ value: UInt32) throws { self.integer(value) }
  mutating func encode(_ value: UInt64) throws { self.integer(value) }
  private func integer(_ value: some FixedWidthInteger) {
    self.raw { JSONTree.writeInteger(value, into: &$0) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let child = self.tree.addMember(to: self.node, key: nil)
    try self.tree.encode(value, into: child)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = self.tree.addMember(to: self.node, key: nil)
    self.tree.becomeContainer(child, .object)
    return KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: self.tree, node: child))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = self.tree.addMember(to: self.node, key: nil)
    self.tree.becomeContainer(child, .array)
    return UnkeyedContainer(tree: self.tree, node: child)
  }

  mutating func superEncoder() -> any Encoder {
    self.tree.isUnsupported = true
    return JSONTree()
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let tree: JSONTree
  let node: Int

  var codingPath: [any CodingKey] { self.tree.codingPath(of: self.node) }

  mutating func encodeNil() throws {
    self.tree.setRaw(self.node) { $0.append(contentsOf: "null".utf8) }
  }
  mutating func encode(_ value: Bool) throws {
    self.tree.setRaw(self.node) { $0.append(contentsOf: (value ? "true" : "false").utf8) }
  }
  mutating func encode(_ value: String) throws {
    self.tree.setRaw(self.node) { JSONTree.writeString(value, into: &$0) }
  }
  mutating func encode(_ value: Double) throws { try self.floatingPoint(value) }
  mutating func encode(_ value: Float) throws { try self.floatingPoint(value) }
  private func floatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
    try self.tree.setFloatingPoint(self.node, value)
  }
  mutating func encode(_ value: Int) throws { self.integer(value) }
  mutating func encode(_ value: Int8) throws { self.integer(value) }
  mutating func encode(_ value: Int16) throws { self.integer(value) }
  mutating func encode(_ value: Int32) throws { self.integer(value) }
  mutating func encode(_ value: Int64) throws { self.integer(value) }
  mutating func encode(_ value: UInt) throws { self.integer(value) }
  mutating func encode(_ value: UInt8) throws { self.integer(value) }
  mutating func encode(_ value: UInt16) throws { self.integer(value) }
  mutating func encode(_ value: UInt32) throws { self.integer(value) }
  mutating func encode(_ value: UInt64) throws { self.integer(value) }
  private func integer(_ value: some FixedWidthInteger) {
    self.tree.setRaw(self.node) { JSONTree.writeInteger(value, into: &$0) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    guard self.tree.nodes[self.node].kind == .unset else {
      self.tree.isUnsupported = true
      return
    }
    try self.tree.encode(value, into: self.node)
  }
}

/// Thrown inside the encoder where Foundation would write something else or throw.
private struct CompactJSONUnsupported: Error {}
