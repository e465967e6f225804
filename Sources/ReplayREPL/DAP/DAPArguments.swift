import ActionLog

/// A request's arguments, read with errors that say which argument is wrong and how.
struct DAPArguments {
  let command: String
  let value: JSONValue

  private func member(_ path: String) -> JSONValue? {
    var value: JSONValue? = self.value
    for key in path.split(separator: ".") { value = value?[String(key)] }
    return value == .null ? nil : value
  }

  private func wrongType(_ path: String, _ found: JSONValue, _ wanted: String) -> DAPError {
    DAPError("\(self.command): \"\(path)\" is \(found.typeName), not \(wanted).")
  }

  func string(_ path: String) throws -> String? {
    guard let value = self.member(path) else { return nil }
    guard case let .string(text) = value else { throw self.wrongType(path, value, "a string") }
    return text
  }

  func requiredString(_ path: String) throws -> String {
    guard let text = try self.string(path) else {
      throw DAPError("\(self.command) needs \"\(path)\", a string.")
    }
    return text
  }

  func int(_ path: String) throws -> Int? {
    guard let value = self.member(path) else { return nil }
    switch value {
    case let .integer(number): return Int(clamping: number)
    case let .number(number) where number == number.rounded() && abs(number) < 1e15:
      return Int(number)
    default: throw self.wrongType(path, value, "a whole number")
    }
  }

  func requiredInt(_ path: String) throws -> Int {
    guard let number = try self.int(path) else {
      throw DAPError("\(self.command) needs \"\(path)\", a whole number.")
    }
    return number
  }

  func bool(_ path: String) throws -> Bool? {
    guard let value = self.member(path) else { return nil }
    guard case let .bool(flag) = value else { throw self.wrongType(path, value, "true or false") }
    return flag
  }

  func array(_ path: String) throws -> [DAPArguments]? {
    guard let value = self.member(path) else { return nil }
    guard case let .array(elements) = value else { throw self.wrongType(path, value, "an array") }
    return elements.enumerated().map {
      DAPArguments(command: "\(self.command) (\(path)[\($0.offset)])", value: $0.element)
    }
  }
}
