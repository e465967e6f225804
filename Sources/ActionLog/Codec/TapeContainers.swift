/// An object's members, found by comparing their keys' bytes.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let document: TapeDocument
  /// The object's token.
  let index: Int
  let path: TapePath?

  var codingPath: [any CodingKey] { TapePath.keys(self.path) }

  var allKeys: [Key] {
    var keys: [Key] = []
    var names: [String] = []
    var member = self.index + 1
    let end = Int(self.document.tokens[self.index].end)
    while member < end {
      // NB: A key that appears twice is listed once; objects are small, so a scan finds it.
      if let name = try? self.document.string(at: member, path: { nil }),
        !names.contains(name), let key = Key(stringValue: name)
      {
        keys.append(key)
        if Int(self.document.tokens[self.index].count) > 1 { names.append(name) }
      }
      member = Int(self.document.tokens[member + 1].end)
    }
    return keys
  }

  /// The token of the value at `key`: the first member with that key, as in Foundation.
  func valueIndex(_ key: Key) -> Int? {
    var name = key.stringValue
    return name.withUTF8 { wanted in
      var member = self.index + 1
      let tokens = self.document.tokens
      let end = Int(tokens[self.index].end)
      while member < end {
        let token = tokens[member]
        if token.kind == .string {
          if Int(token.length) == wanted.count,
            wanted.elementsEqual(self.document.bytes(of: token))
          {
            return member + 1
          }
        } else if (try? self.document.string(at: member, path: { nil })) == key.stringValue {
          return member + 1
        }
        member = Int(tokens[member + 1].end)
      }
      return nil
    }
  }

  func value(_ key: Key) throws -> Int {
    guard let index = self.valueIndex(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: self.codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return index
  }

  func child(_ key: Key) -> TapePath {
    TapePath(key, parent: self.path)
  }

  func contains(_ key: Key) -> Bool { self.valueIndex(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    self.document.tokens[try self.value(key)].kind == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try self.document.bool(at: try self.value(key), path: { self.child(key) })
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try self.document.string(at: try self.value(key), path: { self.child(key) })
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try self.document.double(at: try self.value(key), path: { self.child(key) })
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try self.document.float(at: try self.value(key), path: { self.child(key) })
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try self.integer(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try self.integer(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try self.integer(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try self.integer(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try self.integer(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try self.integer(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try self.integer(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try self.integer(type, key)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try self.integer(type, key)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try self.integer(type, key)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try self.document.unbox(type, at: try self.value(key), path: self.child(key))
  }

  private func integer<Integer: FixedWidthInteger>(
    _ type: Integer.Type, _ key: Key
  ) throws -> Integer {
    try self.document.integer(type, at: try self.value(key), path: { self.child(key) })
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try TapeDecoder(document: self.document, index: try self.value(key), path: self.child(key))
      .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try TapeDecoder(document: self.document, index: try self.value(key), path: self.child(key))
      .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    try self.superDecoder(named: TapeSuperKey())
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try self.superDecoder(named: key)
  }

  private func superDecoder(named key: any CodingKey) throws -> any Decoder {
    let index = Key(stringValue: key.stringValue).flatMap { self.valueIndex($0) }
    guard let index else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: self.codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return TapeDecoder(
      document: self.document, index: index, path: TapePath(key, parent: self.path))
  }
}

/// The key `super`, for `superDecoder()`.
struct TapeSuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

/// An array's elements, in order.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
  let document: TapeDocument
  let path: TapePath?
  /// The next element's token.
  private var next: Int
  private let end: Int

  let count: Int?
  private(set) var currentIndex = 0

  init(document: TapeDocument, index: Int, path: TapePath?) {
    self.document = document
    self.path = path
    self.next = index + 1
    self.end = Int(document.tokens[index].end)
    self.count = Int(document.tokens[index].count)
  }

  var codingPath: [any CodingKey] { TapePath.keys(self.path) }
  var isAtEnd: Bool { self.next >= self.end }

  /// The next element's token and a maker of its path, moving past it.
  private mutating func take(_ type: Any.Type) throws -> (Int, () -> TapePath) {
    let (parent, element) = (self.path, self.currentIndex)
    let path = { TapePath(TapeIndexKey(element), parent: parent) }
    guard !self.isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: TapePath.keys(path()), debugDescription: "Unkeyed container is at end."))
    }
    let index = self.next
    self.next = Int(self.document.tokens[index].end)
    self.currentIndex += 1
    return (index, path)
  }

  mutating func decodeNil() throws -> Bool {
    guard !self.isAtEnd else {
      throw DecodingError.valueNotFound(
        Any?.self,
        DecodingError.Context(
          codingPath: TapePath.keys(TapePath(TapeIndexKey(self.currentIndex), parent: self.path)),
          debugDescription: "Unkeyed container is at end."))
    }
    guard self.document.tokens[self.next].kind == .null else { return false }
    _ = try self.take(Any?.self)
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let (index, path) = try self.take(type)
    return try self.document.bool(at: index, path: path)
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let (index, path) = try self.take(type)
    return try self.document.string(at: index, path: path)
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let (index, path) = try self.take(type)
    return try self.document.double(at: index, path: path)
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let (index, path) = try self.take(type)
    return try self.document.float(at: index, path: path)
  }
  mutating func decode(_ type: Int.Type) throws -> Int { try self.integer(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try self.integer(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try self.integer(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try self.integer(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try self.integer(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try self.integer(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try self.integer(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try self.integer(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try self.integer(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try self.integer(type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (index, path) = try self.take(type)
    return try self.document.unbox(type, at: index, path: path())
  }

  private mutating func integer<Integer: FixedWidthInteger>(
    _ type: Integer.Type
  ) throws -> Integer {
    let (index, path) = try self.take(type)
    return try self.document.integer(type, at: index, path: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let (index, path) = try self.take(KeyedDecodingContainer<NestedKey>.self)
    return try TapeDecoder(document: self.document, index: index, path: path())
      .container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (index, path) = try self.take((any UnkeyedDecodingContainer).self)
    return try TapeDecoder(document: self.document, index: index, path: path()).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (index, path) = try self.take((any Decoder).self)
    return TapeDecoder(document: self.document, index: index, path: path())
  }
}
