@_spi(Reflection) import Swift
import Synchronization

/// How reflection writes a value of one type, found once for each type: which of the forms in
/// ``_ReflectedValue`` applies, with what the form needs (a struct's stored properties with
/// their offsets, an enum's cases) and functions specialized for the type, so that a value
/// costs a lookup and a read of its memory rather than a run of dynamic casts and a `Mirror`.
///
/// A type is routed to `Mirror`, as before routes existed, wherever its memory is not read
/// here: a class, a type with a custom mirror, an enum with an `indirect` case, a struct with a
/// `weak` or `unowned` property, a dictionary. Either way the bytes written are the same.
final class _ReflectedRoute: @unchecked Sendable {
  enum Form {
    /// An error: its type, description and values (see `_Reflection.encode(error:)`).
    case error
    /// A value of a type that erases the type of what it holds (`AnyHashable`).
    case erasing
    /// Written by the type's own `Encodable` conformance, through a single-value container.
    case encodable((Any, any Encoder) throws -> Void)
    /// A property wrapper written as its wrapped value.
    case unwrapping((Any) -> Any)
    /// An optional: its wrapped value, or `nil`.
    case optional((Any) -> Any?)
    /// A type written as its raw value.
    case raw((Any) -> Any)
    /// An enum whose cases' values are read from its memory.
    case enumeration(Enumeration)
    /// A tuple, or a struct, whose elements are read from its memory.
    case fields(Fields, isTuple: Bool)
    /// An array or a set: its elements, in order.
    case sequence((Any, (Any) throws -> Void) throws -> Void)
    /// Anything else, as `Mirror` shows it.
    case mirror
  }

  /// Whether a value of the type is an error that reflection writes as one (the first question
  /// asked of a value; not asked of an error's own values).
  let isError: Bool
  /// How the value is written, once the question of an error is settled.
  let form: Form
  /// The wrapped value of an optional of the type, `nil` for a type that is not an optional.
  private let unwrap: ((Any) -> Any?)?

  init(isError: Bool, form: Form, unwrap: ((Any) -> Any?)?) {
    self.isError = isError
    self.form = form
    self.unwrap = unwrap
  }

  /// Whether `value`, of the type, is an optional's `nil`.
  func isNil(_ value: Any) -> Bool {
    self.unwrap.map { $0(value) == nil } ?? false
  }

  /// One stored property of a struct, or one element of a tuple.
  struct Field {
    /// The key it is written under.
    let key: String
    let offset: Int
    /// A copy of its value, read from the memory of the whole.
    let load: (UnsafeRawPointer) -> Any
    /// Whether it is an optional, and `nil` at this address (left out when it is).
    let isNone: ((UnsafeRawPointer) -> Bool)?
    /// Whether its declared type is a protocol's: written with the type's name of what it holds.
    let isExistential: Bool
  }

  struct Fields {
    let fields: [Field]
    /// Calls its argument with the address of a value of the type.
    let withAddress: (Any, (UnsafeRawPointer) throws -> Void) throws -> Void
  }

  struct Enumeration {
    /// Each case's name and, for a case with values, how they are copied out of its memory.
    let cases: [(name: String, load: ((UnsafeRawPointer) -> Any)?)]
    /// The case of a value, and its values.
    let caseOf:
      (Any, _ cases: [(name: String, load: ((UnsafeRawPointer) -> Any)?)]) -> (
        name: String, payload: Any?
      )
  }

  private struct Key: Hashable {
    let type: ObjectIdentifier
    let reflectsCodable: Bool
  }

  private static let found = Mutex<[Key: _ReflectedRoute]>([:])

  /// The route of `type`, found on first use.
  static func of(_ type: Any.Type, reflectsCodable: Bool) -> _ReflectedRoute {
    let key = Key(type: ObjectIdentifier(type), reflectsCodable: reflectsCodable)
    if let route = Self.found.withLock({ $0[key] }) { return route }
    let optional = type as? any _ReflectedOptional.Type
    let route = _ReflectedRoute(
      isError: type is any Error.Type && !(type is any _ReflectionUnwrapping.Type),
      form: Self.form(of: type, reflectsCodable: reflectsCodable),
      unwrap: optional.map { optional in { optional._unwrapping($0) } })
    Self.found.withLock { $0[key] = route }
    return route
  }

  private static func form(of type: Any.Type, reflectsCodable: Bool) -> Form {
    if type is any _ReflectionErasing.Type { return .erasing }
    if let encodable = type as? any Encodable.Type,
      _Reflection.isLeaf(type) || !reflectsCodable && _codesItself(type)
    {
      return .encodable(Self.encoding(encodable))
    }
    if let wrapper = type as? any _ReflectionUnwrapping.Type {
      return .unwrapping(Self.unwrapping(wrapper))
    }
    if let optional = type as? any _ReflectedOptional.Type {
      return .optional { optional._unwrapping($0) }
    }
    if type is any AnyObject.Type
      || type is any CustomReflectable.Type && !(type is any _ReflectedSequence.Type)
    {
      // NB: Before a raw value: `Mirror` says whether a class or a custom mirror is written
      // as its raw value (an enum or a struct) or not.
      return .mirror
    }
    if let raw = type as? any RawRepresentable.Type {
      switch _ReflectedDecoding.kind(of: type) {
      case .enum, .struct: return .raw(Self.rawValue(raw))
      default: return .mirror
      }
    }
    if let sequence = type as? any _ReflectedSequence.Type {
      return .sequence { try sequence._forEachElement($0, $1) }
    }
    switch _ReflectedDecoding.kind(of: type) {
    case .struct:
      return Self.structFields(of: type).map { .fields($0, isTuple: false) } ?? .mirror
    case .tuple:
      return Self.tupleFields(of: type).map { .fields($0, isTuple: true) } ?? .mirror
    case .enum:
      return Self.enumeration(of: type).map(Form.enumeration) ?? .mirror
    default:
      return .mirror
    }
  }

  private static func encoding<E: Encodable>(_: E.Type) -> (Any, any Encoder) throws -> Void {
    { value, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(value as! E)
    }
  }

  private static func unwrapping<W: _ReflectionUnwrapping>(_: W.Type) -> (Any) -> Any {
    { ($0 as! W)._reflectedValue }
  }

  private static func rawValue<R: RawRepresentable>(_: R.Type) -> (Any) -> Any {
    { ($0 as! R).rawValue }
  }

  /// A copy of the value of `type` at an address.
  private static func loader(_ type: Any.Type) -> (UnsafeRawPointer) -> Any {
    func loader<T>(_: T.Type) -> (UnsafeRawPointer) -> Any {
      { $0.assumingMemoryBound(to: T.self).pointee }
    }
    return _openExistential(type, do: loader)
  }

  /// Whether the optional of `type` at an address is `nil`; `nil` for a type that is not an
  /// optional.
  private static func noneTest(_ type: Any.Type) -> ((UnsafeRawPointer) -> Bool)? {
    guard let optional = type as? any _ReflectedOptional.Type else { return nil }
    return { optional._isNone($0) }
  }

  private static func addressing(
    _ type: Any.Type
  ) -> (
    Any, (UnsafeRawPointer) throws -> Void
  ) throws -> Void {
    func addressing<T>(_: T.Type) -> (Any, (UnsafeRawPointer) throws -> Void) throws -> Void {
      { value, body in
        // NB: A copy, for a value held in an existential's box is not addressable as `T`.
        var copy = value as! T
        try withUnsafePointer(to: &copy) { try body(UnsafeRawPointer($0)) }
      }
    }
    return _openExistential(type, do: addressing)
  }

  private static func structFields(of type: Any.Type) -> Fields? {
    // NB: `_forEachField` tells no ownership; `_forEachFieldWithKeyPath` stops at a `weak` or
    // `unowned` property, whose memory holds no strong reference to read.
    func allStrong<T>(_: T.Type) -> Bool {
      _forEachFieldWithKeyPath(of: T.self, options: []) { _, _ in true }
    }
    guard _openExistential(type, do: allStrong) else { return nil }
    var fields: [Field] = []
    let readable = _forEachField(of: type, options: []) { name, offset, fieldType, kind in
      if kind == .unknown { return false }
      var key = String(cString: name)
      if key.hasPrefix("_"), fieldType is any _ReflectionUnwrapping.Type {
        key.removeFirst()
      }
      fields.append(
        Field(
          key: key, offset: offset, load: Self.loader(fieldType),
          isNone: Self.noneTest(fieldType), isExistential: kind == .existential))
      return true
    }
    guard readable else { return nil }
    return Fields(fields: fields, withAddress: Self.addressing(type))
  }

  private static func tupleFields(of type: Any.Type) -> Fields? {
    guard let elements = _ReflectedLayout.elements(of: type) else { return nil }
    let fields = elements.enumerated().map { index, element in
      Field(
        key: element.label ?? "_\(index)", offset: element.offset,
        load: Self.loader(element.type), isNone: Self.noneTest(element.type),
        isExistential: false)
    }
    return Fields(fields: fields, withAddress: Self.addressing(type))
  }

  private static func enumeration(of type: Any.Type) -> Enumeration? {
    guard let cases = _ReflectedLayout.cases(of: type), !cases.contains(where: \.isIndirect)
    else { return nil }
    func caseOf<T>(
      _: T.Type
    ) -> (Any, [(name: String, load: ((UnsafeRawPointer) -> Any)?)]) -> (
      name: String, payload: Any?
    ) {
      { value, cases in
        var copy = value as! T
        return withUnsafeMutablePointer(to: &copy) { pointer in
          let address = UnsafeMutableRawPointer(pointer)
          let tag = _ReflectedLayout.enumTag(of: address, type: T.self)
          let found = cases[Int(tag)]
          guard let load = found.load else { return (found.name, nil) }
          // NB: The values are read where projecting the enum leaves them, then the case is
          // put back, so that the copy is destroyed as the value it was.
          _ReflectedLayout.projectEnumData(address, type: T.self)
          let payload = load(UnsafeRawPointer(address))
          _ReflectedLayout.injectEnumTag(address, tag: tag, type: T.self)
          return (found.name, payload)
        }
      }
    }
    return Enumeration(
      cases: cases.map { ($0.name, $0.payload.map(Self.loader)) },
      caseOf: _openExistential(type, do: caseOf))
  }
}

extension Optional {
  static func _unwrapping(_ value: Any) -> Any? {
    (value as! Wrapped?).map { $0 }
  }

  static func _isNone(_ address: UnsafeRawPointer) -> Bool {
    address.assumingMemoryBound(to: Wrapped?.self).pointee == nil
  }
}

/// A collection reflection writes as an array of its elements.
protocol _ReflectedSequence {
  static func _forEachElement(_ value: Any, _ body: (Any) throws -> Void) throws
}

extension Array: _ReflectedSequence {
  static func _forEachElement(_ value: Any, _ body: (Any) throws -> Void) throws {
    for element in value as! Self { try body(element) }
  }
}

extension ContiguousArray: _ReflectedSequence {
  static func _forEachElement(_ value: Any, _ body: (Any) throws -> Void) throws {
    for element in value as! Self { try body(element) }
  }
}

extension Set: _ReflectedSequence {
  static func _forEachElement(_ value: Any, _ body: (Any) throws -> Void) throws {
    for element in value as! Self { try body(element) }
  }
}
