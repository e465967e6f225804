import ActionLog
import Foundation

/// A value written in Swift, as the REPL prints actions and states:
/// `.todos(.element(id: UUID(…), action: .textFieldChanged("Bu")))`, `Todo.State(id: …)`,
/// `[1, 2]`, `nil`. The REPL parses what a user types into one; ``codableJSON`` turns it into the
/// shape a type's synthesized `Codable` reads, which decodes it.
public indirect enum SwiftValue: Equatable, Sendable {
  /// `.name`, or `.name(label: value, value)`; a type before the dot (`Todos.Action.name`) is
  /// left out.
  case enumCase(String, [Argument]?)
  /// `Type(label: value, …)`: a struct's value; `UUID(…)`, `Date(…)`, `URL(…)` as printed.
  case call(String, [Argument])
  /// What a printed `UUID(…)` or `Date(…)` holds, unquoted.
  case bare(String)
  case string(String)
  /// A number, as written.
  case number(String)
  case bool(Bool)
  case `nil`
  case array([SwiftValue])
  /// `\.name`: a binding's field, in `.set(\.name, value)`.
  case keyPath(String)

  /// An associated value or an initializer's argument.
  public struct Argument: Equatable, Sendable {
    public var label: String?
    public var value: SwiftValue

    public init(_ label: String?, _ value: SwiftValue) {
      self.label = label
      self.value = value
    }
  }

  /// The JSON synthesized `Codable` reads for this value: a case as `{"name":{"label":value}}`
  /// with `_0`, `_1`, … for unlabelled values, a struct as an object of its labelled members,
  /// a `nil` member absent, a UUID as its string, a date as the seconds since 2001.
  public var codableJSON: JSONValue {
    get throws(SwiftValueError) {
      switch self {
      case let .enumCase(name, arguments):
        // A binding: `.set(\.field, value)`, recorded by the field's name.
        if name == "set", let arguments, arguments.count == 2, arguments[1].label == nil,
          arguments[0].label == nil, case let .keyPath(field) = arguments[0].value
        {
          return .object(["name": .string(field), "value": try arguments[1].value.codableJSON])
        }
        return .object([name: .object(try Self.members(arguments ?? []))])
      case let .call(type, arguments):
        switch (type.split(separator: ".").last.map(String.init) ?? type, arguments.first) {
        case ("UUID", let argument?) where arguments.count == 1:
          return .string(try argument.value.text(for: "UUID"))
        case ("URL", let argument?) where arguments.count == 1:
          return .string(try argument.value.text(for: "URL"))
        case ("URLError", _), ("CocoaError", _):
          // An error as the REPL prints it, `URLError(_nsError: NSError(…, code: -1009, …))`,
          // or `URLError(URLError.Code(rawValue: -1009))`: recorded by its code.
          guard let code = Self.errorCode(in: arguments) else {
            throw SwiftValueError(
              "\(type)(…) takes its code: \(type)(\(type).Code(rawValue: -1009)), or as printed")
          }
          let isURLError = type.hasSuffix("URLError")
          let description =
            isURLError
            ? URLError.Code(rawValue: code).map { URLError($0).localizedDescription }
              ?? "URLError \(code)"
            : CocoaError(CocoaError.Code(rawValue: code)).localizedDescription
          return .object([
            "error": .string(isURLError ? "Foundation.URLError" : "Foundation.CocoaError"),
            "localizedDescription": .string(description), "code": .integer(Int64(code)),
          ])
        case ("Date", let argument?) where arguments.count == 1:
          let text = try argument.value.text(for: "Date")
          guard let date = Self.date(text) else {
            throw SwiftValueError("\(text) is not a date as printed (2025-11-22T02:53:20.000Z)")
          }
          return .number(date.timeIntervalSinceReferenceDate)
        default:
          return .object(try Self.members(arguments))
        }
      case let .bare(text):
        return .string(text)
      case let .string(text):
        return .string(text)
      case let .number(text):
        if let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text) else { throw SwiftValueError("\(text) is not a number") }
        return .number(number)
      case let .bool(value):
        return .bool(value)
      case .nil:
        return .null
      case let .array(values):
        return .array(try values.map { value throws(SwiftValueError) in try value.codableJSON })
      case let .keyPath(path):
        throw SwiftValueError("\\.\(path) is a binding's field, written .set(\\.\(path), value)")
      }
    }
  }

  /// The code an error's arguments give: a `code:` or `rawValue:` number, at any depth.
  private static func errorCode(in arguments: [Argument]) -> Int? {
    for argument in arguments {
      switch argument.value {
      case let .number(text) where argument.label == "code" || argument.label == "rawValue":
        if let code = Int(text) { return code }
      case let .number(text) where arguments.count == 1 && argument.label == nil:
        if let code = Int(text) { return code }
      case let .call(_, nested), let .enumCase(_, nested?):
        if let code = Self.errorCode(in: nested) { return code }
      default:
        continue
      }
    }
    return nil
  }

  private static func members(
    _ arguments: [Argument]
  ) throws(SwiftValueError) -> [String: JSONValue] {
    var members: [String: JSONValue] = [:]
    for (index, argument) in arguments.enumerated() {
      // NB: Synthesized `Codable` leaves an optional that is `nil` out.
      if argument.value == .nil { continue }
      members[argument.label ?? "_\(index)"] = try argument.value.codableJSON
    }
    return members
  }

  private func text(for type: String) throws(SwiftValueError) -> String {
    switch self {
    case let .bare(text), let .string(text): return text
    case let .call(_, arguments) where arguments.count == 1:
      // `UUID(uuidString: "…")`, `URL(string: "…")`.
      return try arguments[0].value.text(for: type)
    default: throw SwiftValueError("\(type)(…) takes its value as printed: \(type)(…)")
    }
  }

  static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}

/// Why a Swift value has no JSON.
public struct SwiftValueError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}

extension TimelineSession {
  /// Sends an action written in Swift (``SwiftValue``), as ``send(json:)`` sends its JSON.
  ///
  /// A case of an enum with raw values (`.filterPicked(.active)`) is written as its raw value,
  /// which the text does not hold: where the type expects a string and finds such a case, it is
  /// tried as the case's name, then capitalized.
  public func send(swift value: SwiftValue) throws -> SentAction {
    let json = try value.codableJSON
    do {
      return try self.send(json: String(decoding: json.bytes, as: UTF8.self))
    } catch let error as ActionJSONError {
      guard case let .typeMismatch(type, context) = error.error, type == String.self else {
        throw error
      }
      // NB: Each guess in turn; an error elsewhere, or none left, is the first one's.
      var tried: Set<String> = []
      let place = context.codingPath.map(\.stringValue).joined(separator: "/")
      while let guess = Self.rawValueGuess(
        in: json, at: context.codingPath, tried: &tried, as: place)
      {
        do {
          return try self.send(json: String(decoding: guess.bytes, as: UTF8.self))
        } catch let next as ActionJSONError {
          guard next.error.codingPathDescription == error.error.codingPathDescription else {
            throw next
          }
        }
      }
      throw error
    }
  }

  /// `json` with the case at `path` (`{"name":{}}`) replaced by a guess at its raw value not
  /// tried yet; `nil` when there is none.
  private static func rawValueGuess(
    in json: JSONValue, at path: [any CodingKey], tried: inout Set<String>, as place: String
  ) -> JSONValue? {
    func replace(_ value: JSONValue, _ keys: ArraySlice<any CodingKey>) -> JSONValue? {
      guard let key = keys.first else {
        guard case let .object(members) = value, members.count == 1,
          let (name, payload) = members.first, payload == .object([:])
        else { return nil }
        let candidates = [name, name.prefix(1).uppercased() + name.dropFirst()]
        guard
          let guess = candidates.first(where: { !tried.contains(place + ":" + $0) })
        else { return nil }
        tried.insert(place + ":" + guess)
        return .string(guess)
      }
      switch value {
      case var .object(members):
        guard let member = members[key.stringValue],
          let replaced = replace(member, keys.dropFirst())
        else { return nil }
        members[key.stringValue] = replaced
        return .object(members)
      case var .array(elements):
        guard let index = key.intValue, elements.indices.contains(index),
          let replaced = replace(elements[index], keys.dropFirst())
        else { return nil }
        elements[index] = replaced
        return .array(elements)
      default:
        return nil
      }
    }
    return replace(json, path[...])
  }
}

extension SwiftValue {
  /// The value at a coding path of its JSON (``codableJSON``): a case's name, then its
  /// values' labels or `_0`, `_1`, …; an array's indices.
  public func value(at path: [String]) -> SwiftValue? {
    guard let key = path.first else { return self }
    switch self {
    case let .enumCase(name, arguments):
      guard key == name else { return nil }
      let rest = path.dropFirst()
      guard let label = rest.first else { return nil }
      return Self.argument(label, in: arguments ?? [])?.value(at: Array(rest.dropFirst()))
    case let .call(_, arguments):
      return Self.argument(key, in: arguments)?.value(at: Array(path.dropFirst()))
    case let .array(values):
      guard let index = Int(key), values.indices.contains(index) else { return nil }
      return values[index].value(at: Array(path.dropFirst()))
    default:
      return nil
    }
  }

  private static func argument(_ key: String, in arguments: [Argument]) -> SwiftValue? {
    for (index, argument) in arguments.enumerated() where (argument.label ?? "_\(index)") == key {
      return argument.value
    }
    return nil
  }
}
