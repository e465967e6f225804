import Foundation

/// A value whose generated code reads it from a reader, as its `Codable` conformance would.
public protocol _JSONDecodable: Decodable {
  init(_json reader: _JSONReader, at index: Int) throws
}

extension _JSONReader {
  /// Member `key` of the object at `object`, which must be there.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int
  ) throws -> Value {
    guard let index = try self.member(key, ofObject: object) else { throw _JSONUnsupported() }
    return try Value(_json: self, at: index)
  }

  /// Optional member `key` of the object at `object`: `nil` when absent or `null`, as
  /// synthesized `Codable` reads it.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int
  ) throws -> Value? {
    guard let index = try self.member(key, ofObject: object), !self.isNull(at: index) else {
      return nil
    }
    return try Value(_json: self, at: index)
  }

  /// Optional member `key` of an optional type (`Int??`): `nil` when absent, `.some(nil)` when
  /// `null`, as a recording writes them apart. Without it, generated code reading an `Int??`
  /// would read an `Int?` and wrap it, making `nil` of an absent member `.some(nil)`.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int
  ) throws -> Value?? {
    guard let index = try self.member(key, ofObject: object) else { return nil }
    guard !self.isNull(at: index) else { return .some(nil) }
    return try Value(_json: self, at: index)
  }

  /// Member `key` of a type without generated code, by `Codable`: absent, `nil` when the
  /// type is optional.
  @_disfavoredOverload
  @inlinable
  public func member<Value: Decodable>(_ key: StaticString, of object: Int) throws -> Value {
    guard let index = try self.member(key, ofObject: object) else {
      guard let optional = Value.self as? any _JSONOptional.Type else { throw _JSONUnsupported() }
      return optional._none as! Value
    }
    if let optional = Value.self as? any _JSONOptional.Type, let present = optional._presentNull,
      self.isNull(at: index)
    {
      return present as! Value
    }
    guard _codesItself(Value.self) else {
      return try self.decode(_ReflectedBox<Value>.self, at: index).value
    }
    return try self.decode(Value.self, at: index)
  }

  /// Member `key` of a type that is not `Decodable` (a model declared without `Codable`), built
  /// back by reflection (``_ReflectedDecoding``); one it cannot build throws, leaving the whole
  /// value to `Codable`, which says why.
  @_disfavoredOverload
  @inlinable
  public func member<Value>(_ key: StaticString, of object: Int) throws -> Value {
    guard let index = try self.member(key, ofObject: object) else {
      guard let optional = Value.self as? any _JSONOptional.Type else { throw _JSONUnsupported() }
      return optional._none as! Value
    }
    return try self.decode(_ReflectedBox<Value>.self, at: index).value
  }

  /// Member `key` of a type that is not `Decodable`, by reflection.
  @_disfavoredOverload
  @inlinable
  public func member<Value>(
    _ key: StaticString, of object: Int, as type: Value.Type
  ) throws -> Value {
    try self.member(key, of: object) as Value
  }

  /// Member `key` of the type of the property at `keyPath`, not `Decodable`: by reflection.
  @_disfavoredOverload
  @inlinable
  public func member<Root, Value>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value>
  ) throws -> Value {
    try self.member(key, of: object) as Value
  }

  /// Member `key` of the object at `object`, of `type`, as generated code names it: an
  /// associated value's declared type.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, as type: Value.Type
  ) throws -> Value {
    try self.member(key, of: object)
  }

  /// Optional member `key` of `type`: `nil` when absent or `null`.
  @inlinable
  public func member<Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, as type: Value?.Type
  ) throws -> Value? {
    try self.member(key, of: object)
  }

  /// Member `key` of a type without generated code, by `Codable`.
  @inlinable
  public func member<Value: Decodable>(
    _ key: StaticString, of object: Int, as type: Value.Type
  ) throws -> Value {
    try self.member(key, of: object) as Value
  }

  /// Member `key` of the type of the property at `keyPath`.
  @inlinable
  public func member<Root, Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value>
  ) throws -> Value {
    try self.member(key, of: object)
  }

  /// Optional member `key` of the type of the property at `keyPath`.
  @inlinable
  public func member<Root, Value: _JSONDecodable>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value?>
  ) throws -> Value? {
    try self.member(key, of: object)
  }

  /// Member `key` of the type of the property at `keyPath`, without generated code.
  @inlinable
  public func member<Root, Value: Decodable>(
    _ key: StaticString, of object: Int, at keyPath: KeyPath<Root, Value>
  ) throws -> Value {
    try self.member(key, of: object) as Value
  }

  /// Whether `key` is `name`.
  @inlinable
  public func key(_ key: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
    name.withUTF8Buffer { $0.count == key.count && $0.elementsEqual(key) }
  }
}

extension String: _JSONDecodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    self = try reader.string(at: index)
  }
}

extension Bool: _JSONDecodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    self = try reader.bool(at: index)
  }
}

extension _JSONDecodable where Self: FixedWidthInteger {
  /// A number without a fraction that fits.
  public init(_json reader: _JSONReader, at index: Int) throws {
    self = try reader.integer(Self.self, at: index)
  }
}

extension Int: _JSONDecodable {}
extension Int64: _JSONDecodable {}
extension Int32: _JSONDecodable {}
extension UInt: _JSONDecodable {}
extension UInt64: _JSONDecodable {}

extension Double: _JSONDecodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    self = try reader.double(at: index)
  }
}

extension UUID: _JSONDecodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    self = try reader.uuid(at: index)
  }
}

extension Date: _JSONDecodable {
  /// With the default strategy: the seconds since the reference date.
  public init(_json reader: _JSONReader, at index: Int) throws {
    self.init(timeIntervalSinceReferenceDate: try reader.double(at: index))
  }
}

/// An optional, told apart at run time: a member that is absent is `nil`.
public protocol _JSONOptional {
  static var _none: Self { get }
  /// What a member that is there and `null` holds: for an optional of an optional
  /// (`Int??`), `.some(nil)`, which a recording writes as `null` where it writes `nil` as no
  /// member at all; `nil` for any other optional, whose `null` is `nil`.
  static var _presentNull: Self? { get }
}

extension Optional: _JSONOptional {
  public static var _none: Self { nil }
  public static var _presentNull: Self? {
    guard let inner = Wrapped.self as? any _JSONOptional.Type else { return nil }
    return .some(.some(inner._none as! Wrapped))
  }
}

extension Array: _JSONDecodable where Element: _JSONDecodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    let elements = try reader.elements(ofArray: index)
    self.init()
    self.reserveCapacity(elements.count)
    for element in elements {
      self.append(try Element(_json: reader, at: element))
    }
  }
}

/// A value that is not `Decodable`, read by reflection where a decoder is needed.
public struct _ReflectedBox<Value>: Decodable {
  public let value: Value

  public init(from decoder: any Decoder) throws {
    self.value = try _ReflectedDecoding.decode(Value.self, from: decoder)
  }
}

/// Whether generated code may read values (``_JSONDecodable``). A reader that needs every
/// value's whole coding path turns it off: generated code hands what it cannot read to
/// `Codable` from where it stands, with the path from there (a replay decoding an action whose
/// shared values it joins by where they sit).
public enum _JSONGeneratedDecoding {
  @TaskLocal public static var isEnabled = true
}
