import Foundation

/// Encodes values as the compact, key-sorted JSON that Foundation's `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]` and its default strategies, byte for byte, with much
/// less work.
///
/// Foundation's encoder builds a tree of boxed values (numbers as strings, objects as
/// dictionaries, an encoder object per nested value) before it writes anything. This one writes
/// each value where it goes as it is encoded, straight into the caller's buffer. An object's
/// members are written in the order they come; when the object closes, and only if its keys
/// did not come sorted, its members are moved into key order within the bytes already written.
///
/// A container closes when the value that opened it has been encoded, or when its parent is
/// written to again. It gives up, leaving the buffer as it was, on what it does not write the
/// way Foundation would: a container written to after it closed, a value whose `encode(to:)`
/// throws, a super-encoder, a nested container reopened for a key already used, more nested
/// containers than Foundation allows, a top-level value that encodes nothing, a non-finite
/// floating-point number, 128-bit integers. The caller then encodes with Foundation, which
/// writes the same bytes or throws its own error.
struct CompactJSONEncoder {
  /// The value's JSON, or `nil` when Foundation must encode it.
  func encode<T: Encodable>(_ value: T) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    return JSONStreamWriter().encode(value, appendingTo: &output) ? output : nil
  }
}

/// The state of one encoding: the bytes, the containers still open, and the value being encoded.
final class JSONStreamWriter: Encoder {
  /// An open object or array.
  struct Frame {
    /// Tells this frame from one that was closed and another opened in its place.
    var id: Int
    var isObject: Bool
    /// Where its `{` or `[` is in the output.
    var start: Int
    /// Its first member in ``members`` (objects only).
    var firstMember: Int
    var count = 0
    /// Whether the keys so far came in order, each after the one before.
    var isSorted = true
    /// The key or index of the member this container is the value of, for coding paths; `nil`
    /// with index -1 at the top.
    var key: String?
    var index: Int
  }

  /// A member of an open object: where it starts (its key's opening quote) and where its key
  /// ends (after the closing quote). Its value ends where the next member's comma is, or the
  /// object's end.
  struct Member {
    var start: Int
    var keyEnd: Int
    /// The key, kept only when it was written with escapes (its bytes then do not sort as the
    /// key does).
    var escapedKey: String?
  }

  /// The value being encoded: where it goes and what it has written.
  struct Slot {
    /// The containers open around it.
    var depth: Int
    /// Where its bytes start.
    var start: Int
    /// The container it opened, if any.
    var frame = -1
    var key: String?
    var index: Int
  }

  /// The most containers Foundation writes nested in one another: it refuses a 512th.
  static let maximumDepth = 511

  // NB: One thread uses a writer, and no access to these overlaps another: the dynamic checks
  // that accesses to a class's properties do not overlap cost as much as the encoding itself.
  @exclusivity(unchecked) var output: [UInt8] = []
  @exclusivity(unchecked) var frames: [Frame] = []
  @exclusivity(unchecked) var members: [Member] = []
  @exclusivity(unchecked) var slot = Slot(depth: 0, start: 0, key: nil, index: -1)
  /// The writer that encodes the values generated code hands back.
  var nested: JSONStreamWriter?
  /// What generated code hands those values to, made once (``fallback``).
  var madeFallback: ((any Encodable, inout [UInt8]) throws -> Void)?
  @exclusivity(unchecked) var isUnsupported = false
  @exclusivity(unchecked) private var nextFrameID = 0
  @exclusivity(unchecked) var scratch: [UInt8] = []

  init() {
    self.frames.reserveCapacity(16)
    self.members.reserveCapacity(32)
  }

  /// Appends the value's JSON to `buffer` and returns `true`; leaves `buffer` as it was and
  /// returns `false` when Foundation must encode it. A writer can be used again and again, one
  /// value at a time.
  func encode<T: Encodable>(_ value: T, appendingTo buffer: inout [UInt8]) -> Bool {
    self.frames.removeAll(keepingCapacity: true)
    self.members.removeAll(keepingCapacity: true)
    self.isUnsupported = false
    swap(&self.output, &buffer)
    defer { swap(&self.output, &buffer) }
    return self.encodeTopLevel(value)
  }

  /// Encodes `value` after what ``output`` holds; on `false`, ``output`` is as it was.
  private func encodeTopLevel<T: Encodable>(_ value: T) -> Bool {
    let start = self.output.count
    do {
      self.slot = Slot(depth: 0, start: start, key: nil, index: -1)
      try self.encodeSlotValue(value, isTopLevel: true)
      self.close(downTo: 0)
    } catch {
      self.isUnsupported = true
    }
    // NB: Foundation refuses a top-level value that encodes nothing.
    if self.isUnsupported || self.output.count == start {
      self.output.removeLast(self.output.count - start)
      return false
    }
    return true
  }

  // MARK: - Encoder

  var codingPath: [any CodingKey] {
    var path = self.path(through: self.slot.depth - 1)
    if self.slot.index >= 0 { path.append(PathKey(self.slot.key, self.slot.index)) }
    return path
  }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      StreamKeyedContainer<Key>(writer: self, frame: self.slotContainer(isObject: true)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(writer: self, frame: self.slotContainer(isObject: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    StreamSingleValueContainer(writer: self, slotStart: self.slot.start, slotDepth: self.slot.depth)
  }

  // MARK: - Containers

  /// Where a container is on the stack, as its handle holds it.
  struct FrameHandle {
    var depth: Int
    var id: Int
  }

  /// The container of the value being encoded: opened now, or the one it already opened.
  private func slotContainer(isObject: Bool) -> FrameHandle {
    if self.slot.frame >= 0 {
      let depth = self.slot.depth
      if depth < self.frames.count, self.frames[depth].id == self.slot.frame,
        self.frames[depth].isObject == isObject
      {
        return FrameHandle(depth: depth, id: self.slot.frame)
      }
      self.isUnsupported = true
      return FrameHandle(depth: -1, id: -1)
    }
    guard self.output.count == self.slot.start, self.frames.count == self.slot.depth else {
      self.isUnsupported = true
      return FrameHandle(depth: -1, id: -1)
    }
    let handle = self.open(isObject: isObject, key: self.slot.key, index: self.slot.index)
    self.slot.frame = handle.id
    return handle
  }

  /// Opens a container on top of the stack.
  private func open(isObject: Bool, key: String?, index: Int) -> FrameHandle {
    guard self.frames.count < Self.maximumDepth else {
      self.isUnsupported = true
      return FrameHandle(depth: -1, id: -1)
    }
    let id = self.nextFrameID
    self.nextFrameID += 1
    self.frames.append(
      Frame(
        id: id, isObject: isObject, start: self.output.count, firstMember: self.members.count,
        key: key, index: index))
    self.output.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
    return FrameHandle(depth: self.frames.count - 1, id: id)
  }

  /// Makes `handle`'s container the top of the stack, closing the containers above it; `false`
  /// (and the encoding given up) when it is closed, or belongs to a value around the one being
  /// encoded.
  @inline(__always)
  private func resume(_ handle: FrameHandle) -> Bool {
    guard handle.depth >= self.slot.depth, handle.depth < self.frames.count,
      self.frames[handle.depth].id == handle.id
    else {
      self.isUnsupported = true
      return false
    }
    if self.frames.count > handle.depth + 1 { self.close(downTo: handle.depth + 1) }
    return true
  }

  /// Closes containers until `depth` are open.
  func close(downTo depth: Int) {
    while self.frames.count > depth {
      let frame = self.frames.removeLast()
      if frame.isObject {
        if !frame.isSorted { self.sortMembers(of: frame) }
        self.members.removeLast(frame.count)
        self.output.append(UInt8(ascii: "}"))
      } else {
        self.output.append(UInt8(ascii: "]"))
      }
    }
  }

  /// Starts a member of the object `handle`: its comma, key and colon. `false` when the encoding
  /// was given up.
  func beginMember(_ handle: FrameHandle, key: String) -> Bool {
    guard self.resume(handle) else { return false }
    let depth = handle.depth
    if self.frames[depth].count > 0 { self.output.append(UInt8(ascii: ",")) }
    let start = self.output.count
    JSONOutput.writeString(key, into: &self.output)
    let keyEnd = self.output.count
    let member = Member(
      start: start, keyEnd: keyEnd, escapedKey: keyEnd - start == key.utf8.count + 2 ? nil : key)
    if self.frames[depth].count > 0, self.frames[depth].isSorted {
      self.frames[depth].isSorted = self.precedes(self.members[self.members.count - 1], member)
    }
    self.members.append(member)
    self.frames[depth].count += 1
    self.output.append(UInt8(ascii: ":"))
    return true
  }

  /// Starts an element of the array `handle`: its comma. `false` when the encoding was given up.
  func beginElement(_ handle: FrameHandle) -> Bool {
    guard self.resume(handle) else { return false }
    if self.frames[handle.depth].count > 0 { self.output.append(UInt8(ascii: ",")) }
    self.frames[handle.depth].count += 1
    return true
  }

  /// Opens a container as the value of a member or element just begun.
  func openNested(isObject: Bool, key: String?, index: Int) -> FrameHandle {
    self.open(isObject: isObject, key: key, index: index)
  }

  // MARK: - Values

  /// Encodes a value as the member or element just begun.
  func encodeValue<T: Encodable>(_ value: T, key: String?, index: Int) throws {
    let saved = self.slot
    self.slot = Slot(depth: self.frames.count, start: self.output.count, key: key, index: index)
    defer { self.slot = saved }
    try self.encodeSlotValue(value, isTopLevel: false)
  }

  /// Encodes `value` into the current slot, then closes what it opened.
  private func encodeSlotValue<T: Encodable>(_ value: T, isTopLevel: Bool) throws {
    if T.self == UUID.self {
      // NB: What `UUID.encode(to:)` writes, without `uuidString`'s formatted printing.
      JSONOutput.writeUUID(unsafeBitCast(value, to: UUID.self), into: &self.output)
      return
    }
    // NB: The types Foundation's encoder writes in its own way, with its default strategies.
    if T.self == Data.self, let data = value as? Data {
      JSONOutput.writeString(data.base64EncodedString(), into: &self.output)
      return
    }
    if T.self == URL.self, let url = value as? URL {
      JSONOutput.writeString(url.absoluteString, into: &self.output)
      return
    }
    if T.self == Decimal.self, let decimal = value as? Decimal {
      self.output.append(contentsOf: decimal.description.utf8)
      return
    }
    if #available(macOS 15.0, *), T.self == Int128.self || T.self == UInt128.self {
      self.isUnsupported = true
      return
    }
    if self.writesGenerated(value) { return }
    try value.encode(to: self)
    if self.frames.count > self.slot.depth { self.close(downTo: self.slot.depth) }
    // NB: Foundation writes a value inside another that encodes nothing as an empty object.
    if self.output.count == self.slot.start, !isTopLevel {
      self.output.append(UInt8(ascii: "{"))
      self.output.append(UInt8(ascii: "}"))
    }
  }

  /// Writes a single value into the slot that starts at `start`, if it is still the slot being
  /// encoded and empty.
  @inline(__always)
  func writeSingle(start: Int, depth: Int, _ body: (inout [UInt8]) -> Void) {
    guard self.slot.start == start, self.slot.depth == depth, self.slot.frame < 0,
      self.output.count == start
    else {
      self.isUnsupported = true
      return
    }
    body(&self.output)
  }

  /// Encodes a value through a single-value container into the slot that starts at `start`.
  func encodeSingle<T: Encodable>(_ value: T, start: Int, depth: Int) throws {
    guard self.slot.start == start, self.slot.depth == depth, self.slot.frame < 0,
      self.output.count == start
    else {
      self.isUnsupported = true
      return
    }
    try self.encodeValue(value, key: self.slot.key, index: self.slot.index)
  }

  /// Writes a floating-point number; throws at a non-finite one, which Foundation refuses.
  static func floatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ value: F, into output: inout [UInt8]
  ) throws {
    guard JSONOutput.writeFloatingPoint(value, into: &output) else {
      throw CompactJSONUnsupported()
    }
  }

  // MARK: - Coding paths

  /// The path to the container at `depth` (the keys of the members holding it and those
  /// around it).
  func path(through depth: Int) -> [any CodingKey] {
    guard depth >= 0 else { return [] }
    var path: [any CodingKey] = []
    for frame in self.frames[0...min(depth, self.frames.count - 1)] where frame.index >= 0 {
      path.append(PathKey(frame.key, frame.index))
    }
    return path
  }
}

/// A coding key for coding paths.
private struct PathKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(_ key: String?, _ index: Int) {
    if let key {
      self.stringValue = key
    } else {
      self.stringValue = "Index \(index)"
      self.intValue = index
    }
  }

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init(intValue: Int) {
    self.init(nil, intValue)
  }
}
