@_spi(Reflection) import Swift

/// What ``_ReflectedValue`` wrote, read back into a type that is not `Decodable`: a plain struct
/// declared without `Codable` and out of the macros' reach (a model in a dependency client's
/// file, such as SyncUps' `SpeechRecognitionResult`), built field by field from the stored
/// properties the runtime lists, as synthesized `Decodable` would build it had the type
/// declared it.
///
/// What it rebuilds:
/// - a type that is `Decodable`, by its conformance;
/// - a struct, whose stored properties it rebuilds in turn (a `nil` optional may be absent);
/// - an optional and an array of what it rebuilds;
/// - a type with a raw value that decodes (an enum such as an authorization status).
///
/// Anything else (a class, an enum with values, a tuple, a dictionary of such values) throws
/// ``_ReflectedDecodingError/cannotRebuild(_:codingPath:)``, naming the type.
public enum _ReflectedDecoding {
  /// A value of `type`, read from `decoder`.
  public static func decode<T>(_ type: T.Type, from decoder: any Decoder) throws -> T {
    try Self.value(of: T.self, from: decoder) as! T
  }

  static func value(of type: Any.Type, from decoder: any Decoder) throws -> Any {
    if let decodable = type as? any Decodable.Type {
      return try Self.decode(decodable, from: decoder)
    }
    if let reflected = type as? any _ReflectedDecodable.Type {
      return try reflected._reflectedDecode(from: decoder)
    }
    if type == Void.self {
      // NB: `()`, as a test store of `Void` actions sends it: written as an empty object.
      return ()
    }
    if let optional = type as? any _ReflectedOptional.Type {
      if try decoder.singleValueContainer().decodeNil() { return optional._reflectedNone }
      return optional._reflectedSome(try Self.value(of: optional._wrappedType, from: decoder))
    }
    if let array = type as? any _ReflectedArray.Type {
      var container = try decoder.unkeyedContainer()
      var elements: [Any] = []
      while !container.isAtEnd {
        elements.append(try Self.value(of: array._elementType, from: container.superDecoder()))
      }
      return array._reflectedArray(elements)
    }
    if let raw = type as? any RawRepresentable.Type, let value = try Self.raw(raw, from: decoder) {
      return value
    }
    guard Self.kind(of: type) == .struct else {
      throw _ReflectedDecodingError.cannotRebuild(type, codingPath: decoder.codingPath)
    }
    func build<Value>(_: Value.Type) throws -> Any {
      try Self.structure(Value.self, from: decoder)
    }
    return try _openExistential(type, do: build)
  }

  private static func decode<D: Decodable>(_ type: D.Type, from decoder: any Decoder) throws -> Any
  {
    // NB: Through a container, so that a decoder reads the types it knows its own way (a URL
    // from a string, a date as its strategy says), as it does for a member.
    try decoder.singleValueContainer().decode(D.self)
  }

  private static func raw<R: RawRepresentable>(
    _ type: R.Type, from decoder: any Decoder
  ) throws -> Any? {
    guard let rawType = R.RawValue.self as? any Decodable.Type else { return nil }
    let raw = try Self.decode(rawType, from: decoder)
    guard let rawValue = raw as? R.RawValue, let value = R(rawValue: rawValue) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "\(R.self) has no value for the raw value \(raw)."))
    }
    return value
  }

  /// A struct, built in place from its stored properties.
  private static func structure<Value>(_ type: Value.Type, from decoder: any Decoder) throws -> Any
  {
    var fields: [(name: String, offset: Int, type: Any.Type)] = []
    _ = _forEachField(of: Value.self, options: []) { name, offset, type, _ in
      fields.append((String(cString: name), offset, type))
      return true
    }
    let container = try decoder.container(keyedBy: _Reflection.Key.self)
    let storage = UnsafeMutableRawPointer.allocate(
      byteCount: max(MemoryLayout<Value>.size, 1), alignment: MemoryLayout<Value>.alignment)
    defer { storage.deallocate() }
    var built = 0
    do {
      for field in fields {
        var key = field.name
        if key.hasPrefix("_"), field.type is any _ReflectionUnwrapping.Type { key.removeFirst() }
        let codingKey = _Reflection.Key(key)
        let value: Any
        if !container.contains(codingKey), let optional = field.type as? any _ReflectedOptional.Type
        {
          value = optional._reflectedNone
        } else {
          value = try Self.value(of: field.type, from: container.superDecoder(forKey: codingKey))
        }
        Self.initialize(storage + field.offset, as: field.type, to: value)
        built += 1
      }
    } catch {
      for field in fields.prefix(built) {
        Self.deinitialize(storage + field.offset, as: field.type)
      }
      throw error
    }
    return storage.assumingMemoryBound(to: Value.self).move()
  }

  private static func initialize(
    _ pointer: UnsafeMutableRawPointer, as type: Any.Type, to value: Any
  ) {
    func initialize<Field>(_: Field.Type) {
      pointer.assumingMemoryBound(to: Field.self).initialize(to: value as! Field)
    }
    _openExistential(type, do: initialize)
  }

  private static func deinitialize(_ pointer: UnsafeMutableRawPointer, as type: Any.Type) {
    func deinitialize<Field>(_: Field.Type) {
      pointer.assumingMemoryBound(to: Field.self).deinitialize(count: 1)
    }
    _openExistential(type, do: deinitialize)
  }

  /// What kind of type `type` is, as the runtime sees it: the kind of a struct's one field.
  static func kind(of type: Any.Type) -> _MetadataKind {
    func kind<T>(_: T.Type) -> _MetadataKind {
      var kind = _MetadataKind.unknown
      _ = _forEachField(of: _Probe<T>.self, options: []) { _, _, _, fieldKind in
        kind = fieldKind
        return false
      }
      return kind
    }
    return _openExistential(type, do: kind)
  }
}

private struct _Probe<T> {
  var value: T
}

/// Why a recorded value could not be read back by reflection.
public enum _ReflectedDecodingError: Error {
  /// A value of `type` at `codingPath` has a shape reflection cannot build (a class, an enum with
  /// values, a tuple).
  case cannotRebuild(Any.Type, codingPath: [any CodingKey])
}

/// A type that reads itself back from what reflection wrote, though it is not `Decodable`: a
/// `Result` whose error is any error.
public protocol _ReflectedDecodable {
  static func _reflectedDecode(from decoder: any Decoder) throws -> Any
}

/// An optional, told apart by its metatype.
protocol _ReflectedOptional {
  static var _wrappedType: Any.Type { get }
  static var _reflectedNone: Any { get }
  static func _reflectedSome(_ wrapped: Any) -> Any
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

/// An error saying that a recorded value cannot be rebuilt by the feature's types as they are,
/// and what to add to them: a reader reports it as a limit of the types, not as damage to the
/// recording.
public protocol _TypeLimitation: Error, CustomStringConvertible {}
