@_spi(Reflection) import Swift
import Foundation

/// What ``_ReflectedValue`` wrote, read back into a type that is not `Decodable`: a plain struct
/// declared without `Codable` and out of the macros' reach (a model in a dependency client's
/// file, such as SyncUps' `SpeechRecognitionResult`), built field by field from the stored
/// properties the runtime lists, as synthesized `Decodable` would build it had the type
/// declared it.
///
/// What it rebuilds:
/// - a type that is `Codable`, by its conformance (one that is only `Decodable` is built from its
///   stored properties, as reflection wrote it);
/// - a struct, whose stored properties it rebuilds in turn (a `nil` optional may be absent);
/// - an optional and an array of what it rebuilds;
/// - a type with a raw value that decodes (an enum such as an authorization status);
/// - an enum, with or without values, its case built by the runtime's own value witnesses;
/// - a tuple, a dictionary, a set, and a class (its stored properties, a superclass's too,
///   written into a new instance without running an initializer).
///
/// An `indirect` case, or a type whose metadata does not say how to build it, throws
/// ``_ReflectedDecodingError/cannotRebuild(_:codingPath:)``, naming the type.
public enum _ReflectedDecoding {
  /// A value of `type`, read from `decoder`.
  public static func decode<T>(_ type: T.Type, from decoder: any Decoder) throws -> T {
    try Self.value(of: T.self, from: decoder) as! T
  }

  static func value(of type: Any.Type, from decoder: any Decoder) throws -> Any {
    if type is any Error.Type, let error = try Self.error(of: type, from: decoder) {
      return error
    }
    return try Self.value(ofStructure: type, from: decoder)
  }

  /// A value of `type` read from `decoder` as its shape is written: an error's values too,
  /// where `value(of:from:)` reads an error from its error form.
  public static func value(ofStructure type: Any.Type, from decoder: any Decoder) throws -> Any {
    if let decodable = type as? any Decodable.Type, _codesItself(type) {
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
      if try decoder.singleValueContainer().decodeNil() {
        // NB: `null` where the member is there: an optional of an optional's `.some(nil)`,
        // which reflection writes apart from `nil` (no member at all).
        if let inner = optional._wrappedType as? any _ReflectedOptional.Type {
          return optional._reflectedSome(inner._reflectedNone)
        }
        return optional._reflectedNone
      }
      return optional._reflectedSome(try Self.value(of: optional._wrappedType, from: decoder))
    }
    if let array = type as? any _ReflectedArray.Type {
      return array._reflectedArray(try Self.elements(of: array._elementType, from: decoder))
    }
    if let raw = type as? any RawRepresentable.Type, let value = try Self.raw(raw, from: decoder) {
      return value
    }
    if let erasing = type as? any _ReflectionErasing.Type {
      let value = try Self.erased(from: decoder)
      guard let erased = erasing._erasing(value) else {
        throw _ReflectedDecodingError.cannotRebuild(type, codingPath: decoder.codingPath)
      }
      return erased
    }
    if Self.kind(of: type) == .existential {
      return try Self.erased(from: decoder)
    }
    if let cases = _ReflectedLayout.cases(of: type) {
      return try Self.enumeration(type, cases: cases, from: decoder)
    }
    if let elements = _ReflectedLayout.elements(of: type) {
      return try Self.tuple(type, elements: elements, from: decoder)
    }
    if let dictionary = type as? any _ReflectedDictionary.Type {
      return try dictionary._reflectedDictionary(from: decoder)
    }
    if let set = type as? any _ReflectedSet.Type {
      return set._reflectedSet(try Self.elements(of: set._elementType, from: decoder))
    }
    switch Self.kind(of: type) {
    case .struct:
      func build<Value>(_: Value.Type) throws -> Any {
        try Self.structure(Value.self, from: decoder)
      }
      return try _openExistential(type, do: build)
    case .class:
      if let object = try Self.object(type, from: decoder) { return object }
    default:
      break
    }
    throw _ReflectedDecodingError.cannotRebuild(type, codingPath: decoder.codingPath)
  }

  /// An error of a type the declaration names (`Result<Bool, ShapeError>`), written in the
  /// error form (``_RecordedErrorForm``): its values; `nil` where the JSON is not that form for
  /// this type.
  private static func error(of type: Any.Type, from decoder: any Decoder) throws -> Any? {
    guard let container = try? decoder.container(keyedBy: _Reflection.Key.self),
      let name = try? container.decode(
        String.self, forKey: _Reflection.Key(_RecordedErrorForm.typeKey)),
      name == _stableTypeName(type),
      container.contains(_Reflection.Key(_RecordedErrorForm.descriptionKey))
    else { return nil }
    let valueKey = _Reflection.Key(_RecordedErrorForm.valueKey)
    let codeKey = _Reflection.Key(_RecordedErrorForm.codeKey)
    if !container.contains(valueKey), container.contains(codeKey) {
      let code = try container.decode(Int.self, forKey: codeKey)
      if type == URLError.self, let code = URLError.Code(rawValue: code) { return URLError(code) }
      if type == CocoaError.self { return CocoaError(CocoaError.Code(rawValue: code)) }
    }
    guard container.contains(valueKey) else {
      throw _ReflectedDecodingError.cannotRebuild(type, codingPath: decoder.codingPath + [valueKey])
    }
    let values = try container.superDecoder(forKey: valueKey)
    if let decodable = type as? any Decodable.Type, _codesItself(type) {
      return try Self.decode(decodable, from: values)
    }
    return try Self.value(ofStructure: type, from: values)
  }

  /// A value written with its type's name, `{"$type":"Swift.Int","$value":1}`, where its
  /// declared type is a protocol's.
  private static func erased(from decoder: any Decoder) throws -> Any {
    let container = try decoder.container(keyedBy: _Reflection.Key.self)
    let typeKey = _Reflection.Key(_Reflection.erasedTypeKey)
    guard container.contains(typeKey) else {
      throw _ReflectedDecodingError.cannotRebuild(
        Any.self, codingPath: decoder.codingPath)
    }
    let name = try container.decode(String.self, forKey: typeKey)
    guard let type = _typeNamed(name) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath + [typeKey],
          debugDescription:
            "The recorded value is a \(name), a type this build does not have, or a generic one."))
    }
    return try Self.value(
      of: type, from: container.superDecoder(forKey: _Reflection.Key(_Reflection.erasedValueKey)))
  }

  /// An enum's case, as reflection wrote it: `{"case":{}}` or `{"case":{"_0":…,"label":…}}`.
  private static func enumeration(
    _ type: Any.Type, cases: [_ReflectedLayout.EnumCase], from decoder: any Decoder
  ) throws -> Any {
    let container = try decoder.container(keyedBy: _Reflection.Key.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription:
            "A \(_stableTypeName(type)) is an object of one member, its case; this one has \(container.allKeys.count)."
        ))
    }
    guard let enumCase = cases.first(where: { $0.name == key.stringValue }) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath + [key],
          debugDescription:
            "\(_stableTypeName(type)) has no case \(key.stringValue); it has \(cases.map(\.name).joined(separator: ", "))."
        ))
    }
    guard !enumCase.isIndirect else {
      throw _ReflectedDecodingError.cannotRebuild(type, codingPath: decoder.codingPath + [key])
    }
    var payload: Any?
    if let payloadType = enumCase.payload {
      let values = try container.superDecoder(forKey: key)
      payload =
        _ReflectedLayout.elements(of: payloadType) != nil
        ? try Self.value(of: payloadType, from: values)
        : try Self.member(
          "_0", of: payloadType, in: values.container(keyedBy: _Reflection.Key.self))
    }
    func build<Value>(_: Value.Type) -> Any {
      _ReflectedLayout.makeEnum(Value.self, tag: enumCase.tag) { storage in
        if let payload, let payloadType = enumCase.payload {
          Self.initialize(storage, as: payloadType, to: payload)
        }
      }
    }
    return _openExistential(type, do: build)
  }

  /// The elements of an array or a set, each of `type`.
  private static func elements(of type: Any.Type, from decoder: any Decoder) throws -> [Any] {
    var container = try decoder.unkeyedContainer()
    var elements: [Any] = []
    while !container.isAtEnd {
      elements.append(try Self.value(of: type, from: container.superDecoder()))
    }
    return elements
  }

  /// Member `key` of `type`: an optional that is absent is `nil`.
  private static func member(
    _ key: String, of type: Any.Type, in container: KeyedDecodingContainer<_Reflection.Key>
  ) throws -> Any {
    let codingKey = _Reflection.Key(key)
    if !container.contains(codingKey), let optional = type as? any _ReflectedOptional.Type {
      return optional._reflectedNone
    }
    return try Self.value(of: type, from: container.superDecoder(forKey: codingKey))
  }

  /// A tuple, as reflection wrote it: `{"_0":…,"label":…}`, a `nil` optional absent.
  private static func tuple(
    _ type: Any.Type, elements: [_ReflectedLayout.TupleElement], from decoder: any Decoder
  ) throws -> Any {
    let container = try decoder.container(keyedBy: _Reflection.Key.self)
    var values: [Any] = []
    for (index, element) in elements.enumerated() {
      values.append(
        try Self.member(element.label ?? "_\(index)", of: element.type, in: container))
    }
    func build<Value>(_: Value.Type) -> Any {
      Self.assemble(Value.self, zip(elements, values).map { ($0.offset, $0.type, $1) })
    }
    return _openExistential(type, do: build)
  }

  /// An instance of a class, its stored properties (a superclass's too) read as a struct's.
  private static func object(_ type: Any.Type, from decoder: any Decoder) throws -> Any? {
    guard let classType = type as? AnyClass else { return nil }
    var fields: [(name: String, offset: Int, type: Any.Type)] = []
    let listed = _forEachField(of: type, options: Self.classType) { name, offset, type, _ in
      fields.append((String(cString: name), offset, type))
      return true
    }
    guard listed else { return nil }
    let values = try Self.fieldValues(fields, from: decoder)
    return _ReflectedLayout.makeObject(classType) { object in
      for (field, value) in zip(fields, values) {
        Self.initialize(object + field.offset, as: field.type, to: value)
      }
    }
  }

  /// The values of stored properties, each read under the key synthesized `Codable` gives it.
  private static func fieldValues(
    _ fields: [(name: String, offset: Int, type: Any.Type)], from decoder: any Decoder
  ) throws -> [Any] {
    let container = try decoder.container(keyedBy: _Reflection.Key.self)
    return try fields.map { field in
      var key = field.name
      if key.hasPrefix("_"), field.type is any _ReflectionUnwrapping.Type { key.removeFirst() }
      return try Self.member(key, of: field.type, in: container)
    }
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
    let values = try Self.fieldValues(fields, from: decoder)
    return Self.assemble(Value.self, zip(fields, values).map { ($0.offset, $0.type, $1) })
  }

  /// A value of `Value` (a struct, a tuple) made of `parts`, each written at its offset.
  private static func assemble<Value>(
    _ type: Value.Type, _ parts: [(offset: Int, type: Any.Type, value: Any)]
  ) -> Value {
    let storage = UnsafeMutableRawPointer.allocate(
      byteCount: max(MemoryLayout<Value>.size, 1), alignment: MemoryLayout<Value>.alignment)
    defer { storage.deallocate() }
    for part in parts {
      Self.initialize(storage + part.offset, as: part.type, to: part.value)
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

  /// `_EachFieldOptions.classType`, a mutable static the compiler will not let us read.
  private static let classType = _EachFieldOptions(rawValue: 1 << 0)

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
  /// A value of `type` at `codingPath` has a shape reflection cannot build (an `indirect` case,
  /// a type whose metadata does not say how).
  case cannotRebuild(Any.Type, codingPath: [any CodingKey])
}

/// A type that reads itself back from what reflection wrote, though it is not `Decodable`: a
/// `Result` whose error is any error.
public protocol _ReflectedDecodable {
  static func _reflectedDecode(from decoder: any Decoder) throws -> Any
}

/// An error saying that a recorded value cannot be rebuilt by the feature's types as they are,
/// and what to add to them: a reader reports it as a limit of the types, not as damage to the
/// recording.
public protocol _TypeLimitation: Error, CustomStringConvertible {}
