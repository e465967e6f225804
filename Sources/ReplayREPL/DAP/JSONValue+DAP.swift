import ActionLog

// Reading a request's arguments, and writing messages, as JSON values.

extension JSONValue {
  /// An object of the members that have a value.
  static func fields(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
    var object: [String: JSONValue] = [:]
    for (key, value) in members {
      if let value { object[key] = value }
    }
    return .object(object)
  }

  /// A string member, or none.
  static func text(_ text: String?) -> JSONValue? { text.map(JSONValue.string) }

  /// The JSON type's name, for an error.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
