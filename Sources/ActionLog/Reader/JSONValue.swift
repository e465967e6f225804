/// Any JSON value, kept as its text.
struct JSONText: Decodable {
  let text: String

  init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    self.text = value.text
  }
}

/// A JSON value: what a custom migration step changes, and how a value whose type is not at hand
/// is read (written back as compact, key-sorted text, or as Foundation-style values).
public indirect enum JSONValue: Codable, Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: AnyKey.self) {
      var object: [String: JSONValue] = [:]
      for key in container.allKeys {
        object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
      }
      self = .object(object)
    } else if var container = try? decoder.unkeyedContainer() {
      var array: [JSONValue] = []
      while !container.isAtEnd {
        array.append(try container.decode(JSONValue.self))
      }
      self = .array(array)
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let bool = try? container.decode(Bool.self) {
        self = .bool(bool)
      } else if let integer = try? container.decode(Int64.self) {
        self = .integer(integer)
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case let .bool(value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case let .integer(value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case let .number(value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case let .string(value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case let .array(values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case let .object(members):
      var container = encoder.container(keyedBy: AnyKey.self)
      for (key, value) in members { try container.encode(value, forKey: AnyKey(stringValue: key)) }
    }
  }

  /// The member `key` of an object; `nil` for a missing member or another kind of value.
  /// Setting a member of a value that is not an object makes it one.
  public subscript(key: String) -> JSONValue? {
    get {
      guard case .object(let members) = self else { return nil }
      return members[key]
    }
    set {
      var members: [String: JSONValue] = [:]
      if case .object(let existing) = self { members = existing }
      members[key] = newValue
      self = .object(members)
    }
  }

  /// Compact JSON with sorted keys.
  public var text: String {
    switch self {
    case .null:
      return "null"
    case let .bool(value):
      return value ? "true" : "false"
    case let .integer(value):
      return String(value)
    case let .number(value):
      if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    case let .string(value):
      return JSONString.quoted(value)
    case let .array(values):
      return "[" + values.map(\.text).joined(separator: ",") + "]"
    case let .object(members):
      return "{"
        + members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        .map { "\(JSONString.quoted($0.key)):\($0.value.text)" }
        .joined(separator: ",") + "}"
    }
  }

  /// The value as Foundation's `JSONSerialization` gives values: `[String: Any]`, `[Any]`,
  /// `String`, `Int`, `Double`, `Bool`, or ``JSONNull``.
  public var foundationValue: Any {
    switch self {
    case .null: JSONNull()
    case let .bool(value): value
    case let .integer(value): Int(value)
    case let .number(value): value
    case let .string(value): value
    case let .array(values): values.map(\.foundationValue)
    case let .object(members): members.mapValues(\.foundationValue)
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
  ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByNilLiteral
{
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
  }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(nilLiteral: ()) { self = .null }
}

/// JSON's `null`, among Foundation-style values.
@_spi(Internals) public struct JSONNull: Sendable {
  public init() {}
}
