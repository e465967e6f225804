// The containers of `JSONStreamWriter`: each writes through the writer into its one output, at
// the container it was opened for.

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let writer: JSONStreamWriter
  let frame: JSONStreamWriter.FrameHandle

  var codingPath: [any CodingKey] { self.writer.path(through: self.frame.depth) }

  @inline(__always)
  private func raw(_ key: Key, _ body: (inout [UInt8]) -> Void) {
    if self.writer.beginMember(self.frame, key: key.stringValue) { body(&self.writer.output) }
  }

  mutating func encodeNil(forKey key: Key) throws {
    self.raw(key) { $0.append(contentsOf: "null".utf8) }
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    self.raw(key) { $0.append(contentsOf: (value ? "true" : "false").utf8) }
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    self.raw(key) { JSONOutput.writeString(value, into: &$0) }
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
    if self.writer.beginMember(self.frame, key: key.stringValue) {
      try JSONStreamWriter.floatingPoint(value, into: &self.writer.output)
    }
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
    self.raw(key) { JSONOutput.writeInteger(value, into: &$0) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let name = key.stringValue
    if self.writer.beginMember(self.frame, key: name) {
      try self.writer.encodeValue(value, key: name, index: 0)
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(writer: self.writer, frame: self.nested(key, isObject: true)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(writer: self.writer, frame: self.nested(key, isObject: false))
  }

  /// A member for a nested container. Foundation merges a container reopened for a key into
  /// what the key holds; this encoder gives up instead (the new member then sorts as not after
  /// the one before, and the object is left unsorted: the writer sees the key twice when it
  /// closes).
  private func nested(_ key: Key, isObject: Bool) -> JSONStreamWriter.FrameHandle {
    let name = key.stringValue
    guard self.writer.beginMember(self.frame, key: name) else {
      return JSONStreamWriter.FrameHandle(depth: -1, id: -1)
    }
    if self.writer.hasEarlierMember(self.frame, key: name) { self.writer.isUnsupported = true }
    // NB: Foundation leaves a nested container's own key out of the coding paths under it.
    return self.writer.openNested(isObject: isObject, key: nil, index: -1)
  }

  mutating func superEncoder() -> any Encoder {
    self.writer.isUnsupported = true
    return JSONStreamWriter()
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    self.writer.isUnsupported = true
    return JSONStreamWriter()
  }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
  let writer: JSONStreamWriter
  let frame: JSONStreamWriter.FrameHandle

  var codingPath: [any CodingKey] { self.writer.path(through: self.frame.depth) }
  var count: Int {
    guard self.frame.depth >= 0, self.frame.depth < self.writer.frames.count,
      self.writer.frames[self.frame.depth].id == self.frame.id
    else { return 0 }
    return self.writer.frames[self.frame.depth].count
  }

  @inline(__always)
  private func raw(_ body: (inout [UInt8]) -> Void) {
    if self.writer.beginElement(self.frame) { body(&self.writer.output) }
  }

  mutating func encodeNil() throws { self.raw { $0.append(contentsOf: "null".utf8) } }
  mutating func encode(_ value: Bool) throws {
    self.raw { $0.append(contentsOf: (value ? "true" : "false").utf8) }
  }
  mutating func encode(_ value: String) throws {
    self.raw { JSONOutput.writeString(value, into: &$0) }
  }
  mutating func encode(_ value: Double) throws { try self.floatingPoint(value) }
  mutating func encode(_ value: Float) throws { try self.floatingPoint(value) }
  private func floatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
    if self.writer.beginElement(self.frame) {
      try JSONStreamWriter.floatingPoint(value, into: &self.writer.output)
    }
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
    self.raw { JSONOutput.writeInteger(value, into: &$0) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = self.count
    if self.writer.beginElement(self.frame) {
      try self.writer.encodeValue(value, key: nil, index: index)
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(writer: self.writer, frame: self.nested(isObject: true)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(writer: self.writer, frame: self.nested(isObject: false))
  }

  private func nested(isObject: Bool) -> JSONStreamWriter.FrameHandle {
    guard self.writer.beginElement(self.frame) else {
      return JSONStreamWriter.FrameHandle(depth: -1, id: -1)
    }
    return self.writer.openNested(isObject: isObject, key: nil, index: -1)
  }

  mutating func superEncoder() -> any Encoder {
    self.writer.isUnsupported = true
    return JSONStreamWriter()
  }
}

struct StreamSingleValueContainer: SingleValueEncodingContainer {
  let writer: JSONStreamWriter
  let slotStart: Int
  let slotDepth: Int

  var codingPath: [any CodingKey] { self.writer.codingPath }

  @inline(__always)
  private func raw(_ body: (inout [UInt8]) -> Void) {
    self.writer.writeSingle(start: self.slotStart, depth: self.slotDepth, body)
  }

  mutating func encodeNil() throws { self.raw { $0.append(contentsOf: "null".utf8) } }
  mutating func encode(_ value: Bool) throws {
    self.raw { $0.append(contentsOf: (value ? "true" : "false").utf8) }
  }
  mutating func encode(_ value: String) throws {
    self.raw { JSONOutput.writeString(value, into: &$0) }
  }
  mutating func encode(_ value: Double) throws { try self.floatingPoint(value) }
  mutating func encode(_ value: Float) throws { try self.floatingPoint(value) }
  private func floatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
    var isFinite = true
    self.raw { isFinite = JSONOutput.writeFloatingPoint(value, into: &$0) }
    if !isFinite { throw CompactJSONUnsupported() }
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
    self.raw { JSONOutput.writeInteger(value, into: &$0) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try self.writer.encodeSingle(value, start: self.slotStart, depth: self.slotDepth)
  }
}

/// Thrown inside the encoder where Foundation would write something else or throw.
struct CompactJSONUnsupported: Error {}
