import Foundation
import TimeTravel

/// `PATH == VALUE` or `PATH != VALUE`, with the value written as the REPL prints values, as
/// `send` takes actions: `todos[0].isComplete == true`, `filter == .active`,
/// `todos[0] == Todo.State(description: "Milk", id: UUID(…), isComplete: false, priority: 0)`.
/// What `watch` and `print` compare.
struct ValueCondition: CustomStringConvertible {
  /// The path, the comparison and the value as written.
  let condition: StateCondition
  /// The value, read as Swift.
  let value: SwiftValue

  /// Whether `text` compares a path with a value, rather than naming a path.
  static func isCondition(_ text: String) -> Bool {
    text.contains("==") || text.contains("!=")
  }

  /// Reads `PATH == VALUE` or `PATH != VALUE`.
  ///
  /// - Throws: `StateConditionError` or `StatePathError` for what is not a condition, and
  ///   ``InterpreterError`` with the column and what was expected there for a value that does
  ///   not read as Swift.
  init(_ text: String) throws {
    let condition = try StateCondition(text)
    // NB: A lone word would read as a type's name: most often it is a case without its dot, a
    // string without quotes, or a misspelt literal.
    if condition.value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
      condition.value.first?.isLetter == true, !["true", "false", "nil"].contains(condition.value)
    {
      throw InterpreterError(
        """
        "\(condition.value)" is not a value: write a case with its dot (.\(condition.value)), a \
        string in quotes ("\(condition.value)"), a number, true, false or nil.
        """)
    }
    do {
      self.value = try SwiftValueParser.parse(condition.value)
    } catch {
      throw InterpreterError(
        "The value after \"\(condition.comparison.rawValue)\" does not read as Swift: "
          + error.message(for: condition.value))
    }
    self.condition = condition
  }

  var description: String { self.condition.description }

  /// Whether the condition holds for a value printed as `dump`; `nil` printed there (no value
  /// at the path) makes neither comparison hold.
  func holds(forDump dump: String?) -> Bool {
    guard let dump else { return false }
    let matches = Self.reads(dump, self.value, written: self.condition.value)
    return self.condition.comparison == .equal ? matches : !matches
  }

  /// The condition as `replay shrink` checks it: its values compared as Swift.
  var stateCondition: StateCondition {
    var condition = self.condition
    let value = self.value
    condition.reads = { dump, written in Self.reads(dump, value, written: written) }
    return condition
  }

  /// Whether a value printed as `dump` reads as `value`, written as `written`.
  private static func reads(_ dump: String, _ value: SwiftValue, written: String) -> Bool {
    guard let printed = try? SwiftValueParser.parse(oneLine(dump)) else {
      // NB: What does not read as Swift (a dictionary, a recording's JSON) is compared as text.
      return StateCondition.matches(dump, written)
    }
    return printed.reads(as: value)
  }
}

extension SwiftValue {
  /// Whether a value the REPL printed reads as `written`, which a user may shorten as Swift
  /// lets them: a case or a type without the types around it (`.all` for `Todos.Filter.all`,
  /// `State(…)` for `Todo.State(…)`), associated values without their labels, numbers in
  /// another spelling (`1.0` for `1`), and identities in lowercase.
  func reads(as written: SwiftValue) -> Bool {
    switch (self, written) {
    case let (.enumCase(name, arguments), .enumCase(writtenName, writtenArguments)):
      return name == writtenName
        && Self.arguments(arguments ?? [], read: writtenArguments ?? [])
    case let (.call(type, arguments), .call(writtenType, writtenArguments)):
      let components = type.split(separator: ".")
      let writtenComponents = writtenType.split(separator: ".")
      return components.reversed().starts(with: writtenComponents.reversed())
        && Self.arguments(arguments, read: writtenArguments)
    case let (.string(text), .string(writtenText)):
      return text == writtenText
    case let (.bare(text), .bare(writtenText)), let (.bare(text), .string(writtenText)):
      return text.caseInsensitiveCompare(writtenText) == .orderedSame
    case let (.number(text), .number(writtenText)):
      if text == writtenText { return true }
      guard let number = Double(text), let writtenNumber = Double(writtenText) else { return false }
      return number == writtenNumber
    case let (.bool(value), .bool(writtenValue)):
      return value == writtenValue
    case (.nil, .nil):
      return true
    case let (.array(elements), .array(writtenElements)):
      return elements.count == writtenElements.count
        && zip(elements, writtenElements).allSatisfy { $0.reads(as: $1) }
    case let (.keyPath(path), .keyPath(writtenPath)):
      return path == writtenPath
    default:
      return false
    }
  }

  /// Whether printed arguments read as the written ones: as many, each value alike, and each
  /// label the same where both have one.
  private static func arguments(_ arguments: [Argument], read written: [Argument]) -> Bool {
    arguments.count == written.count
      && zip(arguments, written).allSatisfy { argument, written in
        (argument.label == nil || written.label == nil || argument.label == written.label)
          && argument.value.reads(as: written.value)
      }
  }
}
