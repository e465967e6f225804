/// An encoder that writes nothing and keeps every value's coding path whole, for finding where
/// the shared values of a state or an action sit.
///
/// Foundation's `JSONEncoder` gives a value in a nested container (an enum case's values, as
/// synthesized `Codable` and the macros write them) a coding path without the container's key,
/// so a place found through it would point elsewhere.
struct _SharedPathFinder: Encoder {
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(codingPath: [any CodingKey] = []) {
    self.codingPath = codingPath
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(Keyed<Key>(codingPath: self.codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    Unkeyed(codingPath: self.codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    Single(codingPath: self.codingPath)
  }

  /// A key for an index or a super-encoder, as `JSONEncoder` names them.
  struct Index: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) {
      self.stringValue = String(index)
      self.intValue = index
    }
    init?(stringValue: String) {
      self.stringValue = stringValue
      self.intValue = nil
    }
    init?(intValue: Int) { self.init(intValue) }
  }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try value.encode(to: _SharedPathFinder(codingPath: self.codingPath + [key]))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(Keyed<NestedKey>(codingPath: self.codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      Unkeyed(codingPath: self.codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder {
      _SharedPathFinder(codingPath: self.codingPath + [Index(stringValue: "super")!])
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      _SharedPathFinder(codingPath: self.codingPath + [key])
    }
  }

  struct Unkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey]
    var count = 0

    private mutating func next() -> [any CodingKey] {
      defer { self.count += 1 }
      return self.codingPath + [Index(self.count)]
    }
    mutating func encodeNil() throws { self.count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try value.encode(to: _SharedPathFinder(codingPath: self.next()))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(Keyed<NestedKey>(codingPath: self.next()))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      Unkeyed(codingPath: self.next())
    }
    mutating func superEncoder() -> any Encoder {
      _SharedPathFinder(codingPath: self.next())
    }
  }

  struct Single: SingleValueEncodingContainer {
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {
      try value.encode(to: _SharedPathFinder(codingPath: self.codingPath))
    }
    // NB: Leaves write nothing.
    mutating func encode(_ value: Bool) throws {}
    mutating func encode(_ value: String) throws {}
    mutating func encode(_ value: Double) throws {}
    mutating func encode(_ value: Float) throws {}
    mutating func encode(_ value: Int) throws {}
    mutating func encode(_ value: Int8) throws {}
    mutating func encode(_ value: Int16) throws {}
    mutating func encode(_ value: Int32) throws {}
    mutating func encode(_ value: Int64) throws {}
    mutating func encode(_ value: UInt) throws {}
    mutating func encode(_ value: UInt8) throws {}
    mutating func encode(_ value: UInt16) throws {}
    mutating func encode(_ value: UInt32) throws {}
    mutating func encode(_ value: UInt64) throws {}
  }
}
