import Foundation

// The containers reflection reads back, each told apart by its metatype: optionals, arrays,
// dictionaries and sets of values that are not `Decodable`.

/// An optional, told apart by its metatype.
protocol _ReflectedOptional {
  static var _wrappedType: Any.Type { get }
  static var _reflectedNone: Any { get }
  static func _reflectedSome(_ wrapped: Any) -> Any
  /// The wrapped value of `value`, an optional of this type.
  static func _unwrapping(_ value: Any) -> Any?
  /// Whether the optional of this type at `address` is `nil`.
  static func _isNone(_ address: UnsafeRawPointer) -> Bool
}

extension Optional: _ReflectedOptional {
  static var _wrappedType: Any.Type { Wrapped.self }
  static var _reflectedNone: Any { Self.none as Any }
  static func _reflectedSome(_ wrapped: Any) -> Any { Self.some(wrapped as! Wrapped) as Any }
}

/// An array, told apart by its metatype.
protocol _ReflectedArray {
  static var _elementType: Any.Type { get }
  static func _reflectedArray(_ elements: [Any]) -> Any
}

extension Array: _ReflectedArray {
  static var _elementType: Any.Type { Element.self }
  static func _reflectedArray(_ elements: [Any]) -> Any { elements.map { $0 as! Element } }
}

/// A dictionary, told apart by its metatype: read as reflection writes it, an object where its
/// keys are strings or integers, else keys and values one after the other.
protocol _ReflectedDictionary {
  static func _reflectedDictionary(from decoder: any Decoder) throws -> Any
}

extension Dictionary: _ReflectedDictionary {
  static func _reflectedDictionary(from decoder: any Decoder) throws -> Any {
    var dictionary: [Key: Value] = [:]
    if Key.self == String.self || Key.self == Int.self {
      let container = try decoder.container(keyedBy: _Reflection.Key.self)
      for key in container.allKeys {
        let value = try _ReflectedDecoding.value(
          of: Value.self, from: container.superDecoder(forKey: key))
        guard
          let dictionaryKey = Key.self == String.self
            ? key.stringValue as? Key : Int(key.stringValue) as? Key
        else {
          throw DecodingError.dataCorrupted(
            DecodingError.Context(
              codingPath: decoder.codingPath + [key],
              debugDescription: "\(key.stringValue) is not a key of a [\(Key.self): \(Value.self)]."
            ))
        }
        dictionary[dictionaryKey] = value as? Value
      }
      return dictionary
    }
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd {
      let key = try _ReflectedDecoding.value(of: Key.self, from: container.superDecoder())
      guard !container.isAtEnd else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath,
            debugDescription: "A dictionary's last key has no value."))
      }
      let value = try _ReflectedDecoding.value(of: Value.self, from: container.superDecoder())
      if let key = key as? Key { dictionary[key] = value as? Value }
    }
    return dictionary
  }
}

/// A set, told apart by its metatype.
protocol _ReflectedSet {
  static var _elementType: Any.Type { get }
  static func _reflectedSet(_ elements: [Any]) -> Any
}

extension Set: _ReflectedSet {
  static var _elementType: Any.Type { Element.self }
  static func _reflectedSet(_ elements: [Any]) -> Any { Set(elements.map { $0 as! Element }) }
}
