/// Any JSON value, kept as its text.
struct JSONText: Decodable {
  let text: String

  init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    self.text = value.text
  }
}

/// A JSON value, decoded generically so it can be written back as compact, key-sorted text.
indirect enum JSONValue: Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
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
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  var text: String {
    switch self {
    case .null:
      return "null"
    case let .bool(value):
      return value ? "true" : "false"
    case let .number(value):
      if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    case let .string(value):
      return JSONValue.quote(value)
    case let .array(values):
      return "[" + values.map(\.text).joined(separator: ",") + "]"
    case let .object(members):
      return "{"
        + members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        .map { "\(JSONValue.quote($0.key)):\($0.value.text)" }
        .joined(separator: ",") + "}"
    }
  }

  static func quote(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
