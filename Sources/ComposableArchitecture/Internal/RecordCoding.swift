import ConcurrencyExtras
import Foundation
import StepChanges

/// A coding key of any name: what the code `_RecordCodec` generates codes with.
public struct _RecordCodingKey: CodingKey, Hashable, Sendable {
  public var stringValue: String
  public var intValue: Int? { nil }
  public init(_ stringValue: String) { self.stringValue = stringValue }
  public init?(stringValue: String) { self.stringValue = stringValue }
  public init?(intValue: Int) { return nil }
}

/// What the code `_RecordCodec` generates calls for each member: one overload per kind of
/// member type, chosen where the member's type is known.
///
/// - A type that is `Codable` is coded by its conformance, an optional left out when `nil` as
///   synthesized `Codable` leaves it.
/// - A type that only encodes, or only decodes, is written and read back by reflection, under
///   its stored properties' names: its own half of `Codable` would write what the other half
///   (reflection) could not read, or read what reflection did not write.
/// - `Result<Success, any Error>` and `any Error`: the error is written with its type, its
///   `localizedDescription` and its `Codable` form (``StepChanges/_RecordedErrorForm``), and read
///   back as itself where its type decodes, else as a ``RecordedError`` that says the same.
/// - Any other type is written by reflection (``StepChanges/_ReflectedValue``) and read back by
///   it (``StepChanges/_ReflectedDecoding``) where its shape allows (a struct, an optional, an
///   array, a raw value); reading another shape throws
///   ``RecordCodingError/notDecodable(type:codingPath:)``, which names it, where it is, and what
///   to add.
public enum _RecordCoding {
  public typealias Decoding = KeyedDecodingContainer<_RecordCodingKey>
  public typealias Encoding = KeyedEncodingContainer<_RecordCodingKey>

  // MARK: - Reading

  // NB: One overload per kind, and optionals told apart at run time: an overload for `T?` beside
  // one for `T` would be ambiguous for an optional member.

  public static func decode<T: Decodable>(_ container: Decoding, _ key: String) throws -> T {
    if let absent = try Self.absentOptional(T.self, container, key) { return absent }
    guard _codesItself(T.self) else {
      return try Self.reflectedValue(
        T.self, from: container.superDecoder(forKey: _RecordCodingKey(key)))
    }
    return try container.decode(T.self, forKey: _RecordCodingKey(key))
  }

  public static func decode<T>(_ container: Decoding, _ key: String) throws -> T {
    if let absent = try Self.absentOptional(T.self, container, key) { return absent }
    return try Self.reflectedValue(
      T.self, from: container.superDecoder(forKey: _RecordCodingKey(key)))
  }

  /// `nil`, for an optional member that is absent or `null`, as synthesized `Decodable` reads it.
  private static func absentOptional<T>(
    _ type: T.Type, _ container: Decoding, _ key: String
  ) throws -> T? {
    guard let optional = T.self as? any _RecordOptional.Type else { return nil }
    let codingKey = _RecordCodingKey(key)
    guard container.contains(codingKey) else { return optional._none as? T }
    guard try container.decodeNil(forKey: codingKey) else { return nil }
    // NB: `null` where the member is there: `.some(nil)` for an optional of an optional.
    return (T.self as? any _JSONOptional.Type)?._presentNull as? T ?? optional._none as? T
  }

  public static func decode(_ container: Decoding, _ key: String) throws -> any Error {
    try RecordedError.decodeError(from: container.superDecoder(forKey: _RecordCodingKey(key)))
  }

  public static func decode<Success: Decodable>(
    _ container: Decoding, _ key: String
  ) throws -> Result<Success, any Error> {
    let result = try container.nestedContainer(
      keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey(key))
    if result.contains(_RecordCodingKey("success")) {
      let values = try result.nestedContainer(
        keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey("success"))
      return .success(try Self.decode(values, "_0") as Success)
    }
    let values = try result.nestedContainer(
      keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey("failure"))
    return .failure(try Self.decode(values, "_0") as any Error)
  }

  public static func decode<Success: Decodable>(
    _ container: Decoding, _ key: String
  ) throws -> Result<Success, any Error>? {
    let codingKey = _RecordCodingKey(key)
    guard container.contains(codingKey), try !container.decodeNil(forKey: codingKey) else {
      return nil
    }
    return try Self.decode(container, key) as Result<Success, any Error>
  }

  /// A value of `type` read from `decoder` by its `Decodable` conformance where it has one,
  /// else by reflection; a shape reflection cannot build throws
  /// ``RecordCodingError/notDecodable(type:codingPath:)``.
  public static func reflectedValue<T>(_ type: T.Type, from decoder: any Decoder) throws -> T {
    do {
      return try _ReflectedDecoding.decode(T.self, from: decoder)
    } catch let _ReflectedDecodingError.cannotRebuild(type, codingPath) {
      throw RecordCodingError.notDecodable(
        type: RecordCodingError.name(of: type),
        codingPath: codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
          .joined(separator: "."))
    }
  }

  // MARK: - Writing

  public static func encode<T: Encodable>(
    _ value: T, to container: inout Encoding, _ key: String
  ) throws {
    if let optional = T.self as? any _RecordOptional.Type, optional._isNone(value) { return }
    guard _codesItself(T.self) else {
      return try container.encode(_ReflectedValue(value), forKey: _RecordCodingKey(key))
    }
    try container.encode(value, forKey: _RecordCodingKey(key))
  }

  public static func encode<T>(_ value: T, to container: inout Encoding, _ key: String) throws {
    if let optional = T.self as? any _RecordOptional.Type, optional._isNone(value) { return }
    try container.encode(_ReflectedValue(value), forKey: _RecordCodingKey(key))
  }

  // MARK: - Enums

  /// The one key of an enum's object: its case.
  public static func soleKey<T>(of container: Decoding, in type: T.Type) throws -> _RecordCodingKey
  {
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription:
            "A \(T.self) is an object of one member, its case; this one has \(container.allKeys.count)."
        ))
    }
    return key
  }

  public static func unknownCase<T>(
    _ key: _RecordCodingKey, of type: T.Type, _ container: Decoding
  ) -> any Error {
    DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: container.codingPath + [key],
        debugDescription: "\(T.self) has no case \(key.stringValue)."))
  }

  public static func noCase<T>(_ type: T.Type, _ codingPath: [any CodingKey]) -> any Error {
    DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: codingPath, debugDescription: "\(T.self) has no cases."))
  }

  static func path(_ codingPath: [any CodingKey], _ key: String) -> String {
    (codingPath.map(\.stringValue) + [key]).joined(separator: ".")
  }
}

/// An optional, told apart at run time by the code `_RecordCodec` generates.
public protocol _RecordOptional {
  static var _none: Self { get }
  var _isNone: Bool { get }
  /// Whether `value`, a value of this type, is `nil`: told by its type, where a cast of the
  /// value would look through an optional's `.some(nil)` and find `nil`.
  static func _isNone(_ value: Any) -> Bool
}

extension Optional: _RecordOptional {
  public static var _none: Self { nil }
  public var _isNone: Bool { self == nil }
  public static func _isNone(_ value: Any) -> Bool { (value as? Self).map { $0 == nil } ?? false }
}

/// Why a recorded value could not be read back into a feature's types.
public enum RecordCodingError: _TypeLimitation, Equatable {
  /// The value at `codingPath` is of a type that is not `Decodable` and that no macro reached.
  case notDecodable(type: String, codingPath: String)

  public var description: String {
    switch self {
    case let .notDecodable(type, codingPath) where type.contains(" -> "):
      return """
        A recorded \(type) at \(codingPath) cannot be rebuilt: it is a function, which a \
        recording cannot hold. To replay it, give the type that holds it a Codable conformance \
        that writes what the function stands for instead.
        """
    case let .notDecodable(type, codingPath):
      let name = Self.innermost(type)
      return """
        A recorded \(type) at \(codingPath) cannot be rebuilt: the type is not Decodable, and no \
        macro made it so. To replay it, add `extension \(name): Codable {}` (or Decodable) where \
        it is declared.
        """
    }
  }
}

extension RecordCodingError {
  /// A type's name as its declaration spells it: nested in the types it is declared in, without
  /// its module (`PlainLedger.Action`, `Array<PlainItem>`).
  static func name(of type: Any.Type) -> String {
    let full = _stableTypeName(type)
    // NB: The module is the first name in it, wherever it starts: `(inout Module.State) -> ()`.
    let start = full.drop { !($0.isLetter || $0 == "_") }
    guard let module = start.split(separator: ".").first,
      module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
    else {
      return full
    }
    return full.replacingOccurrences(of: "\(module).", with: "")
      .replacingOccurrences(of: "Swift.", with: "")
  }

  /// The type to make `Codable` in `type`: what an array, an optional, a set, a dictionary or
  /// another container of the architecture's holds (`PlainItem` in `Array<PlainItem>`).
  static func innermost(_ type: String) -> String {
    let containers = [
      "Array", "ContiguousArray", "Optional", "Set", "Dictionary", "IdentifiedArray",
      "PresentationState", "StackState", "Shared", "SharedReader", "Result",
    ]
    var type = type
    while let open = type.firstIndex(of: "<"), type.last == ">",
      containers.contains(String(type[..<open]))
    {
      let arguments = type[type.index(after: open)..<type.index(before: type.endIndex)]
      // NB: The last argument at depth 0: a dictionary's or an identified array's element, a
      // result's… success: its failure, when `any Error`, is recorded as it is.
      var depth = 0
      var start = arguments.startIndex
      var parts: [Substring] = []
      for index in arguments.indices {
        switch arguments[index] {
        case "<": depth += 1
        case ">": depth -= 1
        case "," where depth == 0:
          parts.append(arguments[start..<index])
          start = arguments.index(after: index)
        default: break
        }
      }
      parts.append(arguments[start...])
      let chosen =
        String(type[..<open]) == "Result" ? parts.first : parts.last
      type = chosen.map { $0.trimmingCharacters(in: .whitespaces) } ?? type
    }
    return type
  }
}

/// An error a recording holds, standing in for one whose type does not decode: it has the
/// recorded type's name and says what the original said.
///
/// Two recorded errors are equal when their types and descriptions are: a reducer that compares
/// errors sees the recorded one as the original.
public struct RecordedError: Error, Equatable, Hashable, Sendable, LocalizedError,
  CustomStringConvertible, Codable
{
  /// The original error's type, as recordings write it (`Foundation.URLError`).
  public let typeName: String
  /// What the original error's `localizedDescription` said.
  public let recordedDescription: String

  public init(typeName: String, localizedDescription: String) {
    self.typeName = typeName
    self.recordedDescription = localizedDescription
  }

  public var errorDescription: String? { self.recordedDescription }

  public var description: String {
    "\(self.typeName.split(separator: ".").last.map(String.init) ?? self.typeName)(\(String(reflecting: self.recordedDescription)))"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: _RecordCodingKey.self)
    self.typeName = try container.decode(
      String.self, forKey: _RecordCodingKey(_RecordedErrorForm.typeKey))
    self.recordedDescription = try container.decode(
      String.self, forKey: _RecordCodingKey(_RecordedErrorForm.descriptionKey))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: _RecordCodingKey.self)
    try container.encode(self.typeName, forKey: _RecordCodingKey(_RecordedErrorForm.typeKey))
    try container.encode(
      self.recordedDescription, forKey: _RecordCodingKey(_RecordedErrorForm.descriptionKey))
  }

  /// The error recorded in `decoder`'s value: the original where its type is found and decodes
  /// its `Codable` form (or, for Foundation's `URLError` and `CocoaError`, is made from its
  /// code), else a stand-in.
  static func decodeError(from decoder: any Decoder) throws -> any Error {
    let recorded = try RecordedError(from: decoder)
    let container = try decoder.container(keyedBy: _RecordCodingKey.self)
    let codeKey = _RecordCodingKey(_RecordedErrorForm.codeKey)
    if container.contains(codeKey) {
      let code = try container.decode(Int.self, forKey: codeKey)
      switch recorded.typeName {
      case "Foundation.URLError":
        if let code = URLError.Code(rawValue: code) { return URLError(code) }
      case "Foundation.CocoaError":
        return CocoaError(CocoaError.Code(rawValue: code))
      default:
        break
      }
    }
    let valueKey = _RecordCodingKey(_RecordedErrorForm.valueKey)
    if container.contains(valueKey), let type = Self.type(named: recorded.typeName) {
      // NB: Its own `Codable` where it has both halves, else its values as reflection wrote
      // them: the error it was, whatever its conformances.
      if let original = try? _ReflectedDecoding.value(
        ofStructure: type, from: container.superDecoder(forKey: valueKey)) as? any Error
      {
        return original
      }
    }
    return recorded
  }

  /// The type a recording names `Module.Outer.Name`; `nil` for a type this build does not
  /// have, or a generic one.
  static func type(named name: String) -> Any.Type? {
    _typeNamed(name)
  }
}

extension Result: _ReflectedDecodable where Failure == any Error {
  /// A result whose success is not `Decodable` (a model from another module), wherever it sits:
  /// the success built back by reflection where its shape allows, the error as a recorded one.
  public static func _reflectedDecode(from decoder: any Decoder) throws -> Any {
    let result = try decoder.container(keyedBy: _RecordCodingKey.self)
    if result.contains(_RecordCodingKey("success")) {
      let values = try result.nestedContainer(
        keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey("success"))
      return Self.success(
        try _ReflectedDecoding.decode(
          Success.self, from: values.superDecoder(forKey: _RecordCodingKey("_0"))))
    }
    let values = try result.nestedContainer(
      keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey("failure"))
    return Self.failure(
      try RecordedError.decodeError(from: values.superDecoder(forKey: _RecordCodingKey("_0"))))
  }
}

extension IdentifiedArray: _ReflectedDecodable where Element: Identifiable, ID == Element.ID {
  /// An identified array of values that are not `Decodable` (a model declared without
  /// `Codable`), as reflection writes it: an array, each element built back by reflection.
  public static func _reflectedDecode(from decoder: any Decoder) throws -> Any {
    var container = try decoder.unkeyedContainer()
    var elements: [Element] = []
    while !container.isAtEnd {
      elements.append(
        try _ReflectedDecoding.decode(Element.self, from: container.superDecoder()))
    }
    return Self(uniqueElements: elements)
  }
}

extension PresentationState: _ReflectedDecodable {
  /// A presentation of a feature whose state is not `Decodable`, as reflection writes it (the
  /// presented state, or `null`): the state built back by reflection.
  public static func _reflectedDecode(from decoder: any Decoder) throws -> Any {
    if try decoder.singleValueContainer().decodeNil() { return Self(wrappedValue: nil) }
    return Self(wrappedValue: try _ReflectedDecoding.decode(State.self, from: decoder))
  }
}

extension AnyHashableSendable: _ReflectionErasing {
  /// What an identifier of any type holds, which a recording writes with its type's name.
  public var _erasedValue: Any { self.base }
  public static func _erasing(_ value: Any) -> Self? {
    // NB: What a recording held was held here before: `Sendable` as it was.
    guard let hashable = value as? any Hashable else { return nil }
    // NB: `Sendable` adds nothing to an existential's layout. Loaded rather than bit-cast:
    // Swift 6 reads the metatype `(any Hashable & Sendable).self` as another type.
    let sendable = withUnsafePointer(to: hashable) {
      UnsafeRawPointer($0).load(as: (any Hashable & Sendable).self)
    }
    return Self(sendable)
  }
}
