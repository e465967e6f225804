@_spi(Reflection) import Swift
import Foundation
import Synchronization

/// Any value, written as synthesized `Codable` would write it had its type declared `Codable`:
/// what a recording holds of a state or an action whose types say nothing of `Codable` (a model
/// from another module, a class, a tuple, an enum case carrying an error).
///
/// ```swift
/// struct Forecast { var temperature: Double; var summary: String? }
/// try JSONEncoder().encode(_ReflectedValue(Forecast(temperature: 21, summary: nil)))
/// // {"temperature":21}
/// ```
///
/// The shape, level by level (see the `ActionLog` format article's "Values without Codable"):
/// - A value whose type is `Codable` is written by its own conformance; one that is only
///   `Encodable` or only `Decodable` is reflected, as the reader reads it back (``_codesItself(_:)``).
/// - A struct or class: an object of its stored properties, a `nil` optional left out. A
///   property wrapper the architecture knows (``_ReflectionUnwrapping``, as `@Shared`) is written
///   under the property's name, as its wrapped value.
/// - An enum: `{"case":{}}`, `{"case":{"_0":…,"label":…}}`; one with a raw value, the raw value.
/// - A tuple: as an enum case's values, `{"_0":…,"label":…}`.
/// - An array or a set: an array. A dictionary whose keys are strings or integers: an object;
///   other keys, an array of keys and values one after the other (as `JSONEncoder` writes them).
/// - An error: `{"error":"Module.Type","localizedDescription":…,"value":…}`, `value` its own
///   `Codable` form where it has one, else its values as reflection writes them (for a struct
///   or an enum), and `code` for a `URLError` or a `CocoaError` (see ``_RecordedErrorForm``).
/// - What has no shape of data (a function, a metatype): its description, as a string.
public struct _ReflectedValue: Encodable {
  /// The value.
  public let value: Any
  /// Whether a value whose type is `Encodable` is reflected too, rather than written by its
  /// conformance, down to strings, numbers, booleans and Foundation's leaf values: how a test
  /// compares the reflected shape with synthesized `Codable`'s.
  public let reflectsCodable: Bool

  /// Wraps `value`.
  public init(_ value: Any, reflectsCodable: Bool = false) {
    self.value = value
    self.reflectsCodable = reflectsCodable
  }

  public func encode(to encoder: any Encoder) throws {
    try _Reflection(reflectsCodable: self.reflectsCodable).encode(self.value, to: encoder)
  }
}

public protocol _ReflectionErasing {
  /// The value held.
  var _erasedValue: Any { get }
  /// A value holding `value`; `nil` when this type cannot hold it.
  static func _erasing(_ value: Any) -> Self?
}

extension AnyHashable: _ReflectionErasing {
  public var _erasedValue: Any { self.base }
  public static func _erasing(_ value: Any) -> Self? {
    (value as? any Hashable).map { AnyHashable($0) }
  }
}

/// The type a recording names `Module.Outer.Name` (as ``_stableTypeName(_:)`` writes it), found
/// by the runtime under its mangled name: each name after the module is tried as a struct, an
/// enum and a class. `nil` for a type this build does not have, or a generic one.
public func _typeNamed(_ name: String) -> Any.Type? {
  let parts = name.split(separator: ".").map(String.init)
  guard parts.count >= 2, parts.count <= 5, !name.contains("<") else { return nil }
  func length(_ part: String) -> String { "\(part.utf8.count)\(part)" }
  var candidates = [length(parts[0])]
  for part in parts.dropFirst() {
    candidates = candidates.flatMap { prefix in
      ["V", "O", "C"].map { prefix + length(part) + $0 }
    }
  }
  for candidate in candidates {
    if let type = _typeByName(candidate) { return type }
  }
  return nil
}

/// A property wrapper that a reflected value writes as the value it wraps (`@Shared`,
/// `@Presents`): synthesized `Codable` writes a wrapped property under its own name with the
/// wrapper's conformance, which for these writes the wrapped value.
public protocol _ReflectionUnwrapping {
  /// The value written in the wrapper's place.
  var _reflectedValue: Any { get }
}

/// What a recorded error holds: its dynamic type, its `localizedDescription`, and its
/// `Codable` form when its type has one.
public enum _RecordedErrorForm {
  /// The member naming the error's type: `{"error":"Foundation.URLError",…}`.
  public static let typeKey = "error"
  public static let descriptionKey = "localizedDescription"
  public static let valueKey = "value"
  /// The member holding the code of an error Foundation names by code (`URLError`,
  /// `CocoaError`), which a replay builds the error again from.
  public static let codeKey = "code"

  /// The name a recording gives an error's type.
  public static func typeName(of error: any Error) -> String {
    _stableTypeName(type(of: error))
  }
}

/// Whether a recording writes and reads a value of `type` by the type's own `Codable`: only
/// when the type both encodes and decodes. A type that only decodes (a model read from a
/// server, with `CodingKeys` of the server's names) or only encodes is written and read back by
/// reflection, under its stored properties' names, so that what is written is what is read.
@inlinable
public func _codesItself(_ type: Any.Type) -> Bool {
  type is any Encodable.Type && type is any Decodable.Type
}

/// A type's name qualified by module and enclosing types (`ExampleFeatures.Todos.State`), as
/// every build names it: without the `(unknown context at $…)` Swift prints for a type in a
/// private or local scope, which another build lacks.
public func _stableTypeName(_ type: Any.Type) -> String {
  var name = String(reflecting: type)
  while let start = name.range(of: "(unknown context at "),
    let end = name[start.upperBound...].range(of: ").")
  {
    name.removeSubrange(start.lowerBound..<end.upperBound)
  }
  return name
}

struct _Reflection {
  let reflectsCodable: Bool

  /// A key that is any string or integer.
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) {
      self.stringValue = string
      self.intValue = nil
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) {
      self.stringValue = String(intValue)
      self.intValue = intValue
    }
  }

  /// The leaf types a test that reflects `Codable` types still writes by their conformance.
  static func isLeaf(_ type: Any.Type) -> Bool {
    Self.leaves.contains(ObjectIdentifier(type))
  }

  private static let leaves: Set<ObjectIdentifier> = Set(
    ([
      String.self, Substring.self, Bool.self, Int.self, Int8.self, Int16.self, Int32.self,
      Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self, Float.self,
      Double.self, Date.self, URL.self, UUID.self, Data.self, Decimal.self,
    ] as [Any.Type]).map(ObjectIdentifier.init))

  func encode(_ value: Any, to encoder: any Encoder) throws {
    let route = self.route(of: value)
    if route.isError {
      // NB: Before `Encodable`: an error keeps its type whatever its conformances.
      return try self.encode(error: value as! any Error, to: encoder)
    }
    try self.encode(structure: value, route: route, to: encoder)
  }

  /// How a value of `value`'s type is written.
  func route(of value: Any) -> _ReflectedRoute {
    _ReflectedRoute.of(type(of: value), reflectsCodable: self.reflectsCodable)
  }

  /// `value` as its shape is written, an error's too.
  func encode(structure value: Any, to encoder: any Encoder) throws {
    try self.encode(structure: value, route: self.route(of: value), to: encoder)
  }

  private func encode(
    structure value: Any, route: _ReflectedRoute, to encoder: any Encoder
  ) throws {
    switch route.form {
    case .error, .mirror:
      try self.encode(mirroring: value, to: encoder)
    case .erasing:
      try self.encode(erased: (value as! any _ReflectionErasing)._erasedValue, to: encoder)
    case .encodable(let encode):
      // NB: Through a container, so that an encoder writes the types it knows its own way (a
      // URL as a string, a date as its strategy says), as it does for a member.
      try encode(value, encoder)
    case .unwrapping(let wrapped):
      try self.encode(wrapped(value), to: encoder)
    case .optional(let unwrap):
      guard let wrapped = unwrap(value) else {
        var container = encoder.singleValueContainer()
        return try container.encodeNil()
      }
      try self.encode(wrapped, to: encoder)
    case .raw(let rawValue):
      try self.encode(rawValue(value), to: encoder)
    case .enumeration(let enumeration):
      var container = encoder.container(keyedBy: Key.self)
      let (name, payload) = enumeration.caseOf(value, enumeration.cases)
      guard let payload else {
        _ = container.nestedContainer(keyedBy: Key.self, forKey: Key(name))
        return
      }
      try container.encode(self.values(payload), forKey: Key(name))
    case .fields(_, isTuple: true):
      try self.values(value).encode(to: encoder)
    case .fields(let fields, isTuple: false):
      var container = encoder.container(keyedBy: Key.self)
      try fields.withAddress(value) { address in
        for field in fields.fields {
          // NB: A `nil` optional is left out, as synthesized `encodeIfPresent` leaves it.
          if let isNone = field.isNone, isNone(address + field.offset) { continue }
          let child = field.load(address + field.offset)
          if field.isExistential {
            let route = self.route(of: child)
            if route.isNil(child) { continue }
            if !route.isError {
              // NB: A property of a protocol's type: what it holds, with its type's name,
              // which a reader needs to build it back.
              try container.encode(Erased(value: child, reflection: self), forKey: Key(field.key))
              continue
            }
          }
          try container.encode(self.node(child), forKey: Key(field.key))
        }
      }
    case .sequence(let forEachElement):
      var container = encoder.unkeyedContainer()
      try forEachElement(value) { try container.encode(self.node($0)) }
    }
  }

  /// The members of the form a value of a type that reflection cannot name from the declaration
  /// is written in: `{"$type":"Swift.Int","$value":1}`.
  public static let erasedTypeKey = "$type"
  public static let erasedValueKey = "$value"

  /// An error's own values, as reflection writes a struct's or an enum's.
  struct ErrorValues: Encodable {
    let error: any Error
    let reflection: _Reflection

    func encode(to encoder: any Encoder) throws {
      try self.reflection.encode(structure: self.error, to: encoder)
    }
  }

  /// A value held where its type is erased, with its type's name.
  struct Erased: Encodable {
    let value: Any
    let reflection: _Reflection

    func encode(to encoder: any Encoder) throws {
      try self.reflection.encode(erased: self.value, to: encoder)
    }
  }

  func encode(erased value: Any, to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(
      _stableTypeName(type(of: value)), forKey: Key(Self.erasedTypeKey))
    try container.encode(self.node(value), forKey: Key(Self.erasedValueKey))
  }

  /// `value`, written by this reflection where a container takes it.
  func node(_ value: Any) -> _ReflectedValue {
    _ReflectedValue(value, reflectsCodable: self.reflectsCodable)
  }

  /// An enum case's values, or a tuple's: `{"_0":…,"label":…}`; one unlabeled value is `_0`.
  func values(_ payload: Any) -> Values {
    Values(payload: payload, reflection: self)
  }

  struct Values: Encodable {
    let payload: Any
    let reflection: _Reflection

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      let route = self.reflection.route(of: self.payload)
      guard case .fields(let fields, isTuple: true) = route.form else {
        // NB: A `nil` value is left out, as the generated code leaves it: `null` is an
        // optional of an optional's `.some(nil)`.
        if route.isNil(self.payload) { return }
        return try container.encode(self.reflection.node(self.payload), forKey: Key("_0"))
      }
      try fields.withAddress(self.payload) { address in
        for field in fields.fields {
          if let isNone = field.isNone, isNone(address + field.offset) { continue }
          try container.encode(
            self.reflection.node(field.load(address + field.offset)), forKey: Key(field.key))
        }
      }
    }
  }

  private func encode(error: any Error, to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(
      _RecordedErrorForm.typeName(of: error), forKey: Key(_RecordedErrorForm.typeKey))
    try container.encode(
      error.localizedDescription, forKey: Key(_RecordedErrorForm.descriptionKey))
    if let encodable = error as? any Encodable, _codesItself(type(of: error)) {
      try container.encode(encodable, forKey: Key(_RecordedErrorForm.valueKey))
    } else if !(error is URLError), !(error is CocoaError),
      [.struct, .enum].contains(Mirror(reflecting: error).displayStyle)
    {
      // NB: An error of the app's own, declared without `Codable`: its values, so that a replay
      // builds the error it was (`ShapeError(reason: "offline")`), not a stand-in.
      try container.encode(
        ErrorValues(error: error, reflection: self), forKey: Key(_RecordedErrorForm.valueKey))
    }
    if let error = error as? URLError {
      try container.encode(error.code.rawValue, forKey: Key(_RecordedErrorForm.codeKey))
    } else if let error = error as? CocoaError {
      try container.encode(error.code.rawValue, forKey: Key(_RecordedErrorForm.codeKey))
    }
  }

  static func isNil(_ value: Any) -> Bool {
    _ReflectedRoute.of(type(of: value), reflectsCodable: false).isNil(value)
  }

  /// The name of a case without values, which `String(describing:)` gives unless the enum
  /// describes itself otherwise: the runtime's name, as `print` finds it.
  static func caseName(of value: Any) -> String {
    func name<T>(_ value: T) -> String? {
      _enumCaseName(value).map { String(cString: $0) }
    }
    return _openExistential(value, do: name) ?? String(describing: value)
  }
}

@_silgen_name("swift_EnumCaseName")
private func _enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
