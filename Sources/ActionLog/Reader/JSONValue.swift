/// Any JSON value, kept as its text.
struct JSONText: Decodable {
  let text: String

  init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    self.text = value.text
  }
}

/// A JSON value, decoded generically: written back as compact, key-sorted text, or handed to
/// code that walks Foundation-style values (a read-only session's state paths).
@_spi(Internals) public indirect enum JSONValue: Decodable, Sendable {
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

/// JSON's `null`, among Foundation-style values.
@_spi(Internals) public struct JSONNull: Sendable {
  public init() {}
}
