/// The names of an enum's cases as its synthesized `Codable` conformance writes them: what a
/// message about an unknown case lists, so that a reader sees what the type has today.
///
/// The synthesized `init(from:)` of an enum asks its decoder for a keyed container over the
/// enum's `CodingKeys`; a decoder that answers with no keys learns that type. `CodingKeys` is an
/// enum without payloads, whose values are its cases' indices and whose `Optional` is `nil` at
/// the first index past them: the cases are read one by one up to there. Anything else (a
/// hand-written conformance, keys that are not such an enum) gives no names.
enum EnumCaseNames {
  /// The case names of `type`, or `[]` when they cannot be told.
  static func of(_ type: Any.Type) -> [String] {
    guard let decodable = type as? any Decodable.Type else { return [] }
    let probe = KeyProbe()
    _ = try? decodable.init(from: probe)
    return probe.names
  }

  /// The cases of a `CodingKey` enum without payloads, in declaration order.
  static func cases<Key: CodingKey>(of key: Key.Type) -> [String] {
    switch (MemoryLayout<Key>.size, MemoryLayout<Key?>.size) {
    case (0, 1):
      // One case: every value of the type is it.
      let storage = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
      defer { storage.deallocate() }
      return [storage.load(as: Key.self).stringValue]
    case (1, 1):
      var names: [String] = []
      for index in 0..<UInt8.max {
        guard let key = unsafeBitCast(index, to: Key?.self) else { break }
        names.append(key.stringValue)
      }
      return names
    default:
      return []
    }
  }
}

/// A decoder that answers a request for a keyed container with none, noting the keys' type.
private final class KeyProbe: Decoder {
  var names: [String] = []
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    self.names = EnumCaseNames.cases(of: Key.self)
    return KeyedDecodingContainer(NoKeys<Key>())
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw Self.refusal
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw Self.refusal
  }

  static let refusal = DecodingError.dataCorrupted(
    .init(codingPath: [], debugDescription: "a probe for case names"))
}

/// A keyed container with no keys: every request fails.
private struct NoKeys<Key: CodingKey>: KeyedDecodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }
  func contains(_ key: Key) -> Bool { false }
  func decodeNil(forKey key: Key) throws -> Bool { throw KeyProbe.refusal }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    throw KeyProbe.refusal
  }
  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> { throw KeyProbe.refusal }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw KeyProbe.refusal
  }
  func superDecoder() throws -> any Decoder { throw KeyProbe.refusal }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw KeyProbe.refusal }
}
