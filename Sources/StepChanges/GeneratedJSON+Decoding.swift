import Foundation

/// A parsed JSON document that generated code reads values from, by the index of each value's
/// token: a recording's decoder. Any failure (a missing key, a value of another kind, a number
/// out of range) throws, and the caller decodes the whole value again with `Codable`, which
/// says what went wrong, where, as it always did.
public protocol _JSONReading {
  /// Whether the value at `index` is `null`.
  func isNull(at index: Int) -> Bool
  /// Throws unless the value at `index` is an object.
  func requireObject(at index: Int) throws
  /// The value of the first member named `key` of the object at `index`, or `nil` when it has
  /// none; throws when the value is not an object.
  func member(_ key: StaticString, ofObject index: Int) throws -> Int?
  /// The key and value of the one member of the object at `index` (an enum's case); throws
  /// when it is not an object of one member.
  func soleMember(ofObject index: Int) throws -> (key: UnsafeRawBufferPointer, value: Int)
  /// The indices of the elements of the array at `index`.
  func elements(ofArray index: Int) throws -> _JSONElements
  func string(at index: Int) throws -> String
  func bool(at index: Int) throws -> Bool
  func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at index: Int) throws -> Integer
  func double(at index: Int) throws -> Double
  func uuid(at index: Int) throws -> UUID
  /// A value of a type without generated code, by `Codable`.
  func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T
}

/// The elements of an array on a reader's tape: their tokens' indices, each after the last one's
/// end.
public struct _JSONElements: Sequence {
  public let first: Int
  public let count: Int
  /// The index after a value and all it holds.
  public let after: (Int) -> Int

  public init(first: Int, count: Int, after: @escaping (Int) -> Int) {
    self.first = first
    self.count = count
    self.after = after
  }

  public struct Iterator: IteratorProtocol {
    var index: Int
    var remaining: Int
    let after: (Int) -> Int

    public mutating func next() -> Int? {
      guard self.remaining > 0 else { return nil }
      let current = self.index
      self.remaining -= 1
      if self.remaining > 0 { self.index = self.after(current) }
      return current
    }
  }

  public func makeIterator() -> Iterator {
    Iterator(index: self.first, remaining: self.count, after: self.after)
  }
}

/// A value whose generated code reads it from a reader, as its `Codable` conformance would.
public protocol _JSONDecodable: Decodable {
  init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws
}

extension _JSONReading {
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

  /// Member `key` of a type without generated code, by `Codable`: absent, `nil` when the
  /// type is optional.
  @_disfavoredOverload
  @inlinable
  public func member<Value: Decodable>(_ key: StaticString, of object: Int) throws -> Value {
    guard let index = try self.member(key, ofObject: object) else {
      guard let optional = Value.self as? any _JSONOptional.Type else { throw _JSONUnsupported() }
      return optional._none as! Value
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
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.string(at: index)
  }
}

extension Bool: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.bool(at: index)
  }
}

extension _JSONDecodable where Self: FixedWidthInteger {
  /// A number without a fraction that fits.
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.integer(Self.self, at: index)
  }
}

extension Int: _JSONDecodable {}
extension Int64: _JSONDecodable {}
extension Int32: _JSONDecodable {}
extension UInt: _JSONDecodable {}
extension UInt64: _JSONDecodable {}

extension Double: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.double(at: index)
  }
}

extension UUID: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self = try reader.uuid(at: index)
  }
}

extension Date: _JSONDecodable {
  /// With the default strategy: the seconds since the reference date.
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
    self.init(timeIntervalSinceReferenceDate: try reader.double(at: index))
  }
}

/// An optional, told apart at run time: a member that is absent is `nil`.
public protocol _JSONOptional {
  static var _none: Self { get }
}

extension Optional: _JSONOptional {
  public static var _none: Self { nil }
}

extension Array: _JSONDecodable where Element: _JSONDecodable {
  public init<Reader: _JSONReading>(_json reader: Reader, at index: Int) throws {
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
