import CustomDump
import Foundation

/// How a shrunk recording must still fail (`replay shrink`).
public enum ShrinkCondition: Sendable, Equatable, CustomStringConvertible {
  /// Today's reducer parts from the behaviour the recording was made with, first at the same
  /// property of the state (at any index), or first in what it returns (its effects).
  ///
  /// A shorter recording has no recorded states to compare with, so this needs that behaviour
  /// as a reducer (`recordedBy:`), and each candidate is replayed with both.
  case diverges
  /// An action matching the breakpoint is replayed, and when a condition is given, it holds in
  /// the state right after that action.
  case reaches(ActionBreakpoint, where: StateCondition?)
  /// The condition holds in the state after some action, or in the initial state.
  case watch(StateCondition)

  public var description: String {
    switch self {
    case .diverges:
      return "today's reducer differs from the recorded behaviour"
    case let .reaches(breakpoint, .none):
      return "an action matching \"\(breakpoint)\" is replayed"
    case let .reaches(breakpoint, .some(condition)):
      return "after an action matching \"\(breakpoint)\", \(condition)"
    case let .watch(condition):
      return "\(condition)"
    }
  }
}

/// A condition on a state: `PATH == VALUE` or `PATH != VALUE`, where `VALUE` is written as
/// `print PATH` shows it (`true`, `42`, `"milk"`, `Todos.Filter.all` or `.all`).
public struct StateCondition: Sendable, Equatable, CustomStringConvertible {
  /// How the value at ``path`` compares with ``value``.
  public enum Comparison: String, Sendable, Equatable {
    case equal = "=="
    case notEqual = "!="
  }

  /// Where the value is.
  public let path: StatePath
  /// How it compares.
  public let comparison: Comparison
  /// The value, as written.
  public let value: String
  /// Whether a value printed as the first string reads as the value written, the second; by
  /// default ``matches(_:_:)``, as text. A reader of Swift (the REPL's) compares them as values.
  public var reads: @Sendable (_ dump: String, _ written: String) -> Bool = Self.matches

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.path == rhs.path && lhs.comparison == rhs.comparison && lhs.value == rhs.value
  }

  /// Parses `PATH == VALUE` or `PATH != VALUE`.
  ///
  /// - Throws: ``StateConditionError``, or ``StatePathError`` for a path that does not parse.
  public init(_ text: String) throws {
    let found = [Comparison.equal, .notEqual].compactMap { comparison in
      text.range(of: comparison.rawValue).map { (comparison, $0) }
    }.min { $0.1.lowerBound < $1.1.lowerBound }
    guard let (comparison, range) = found else {
      throw StateConditionError(text: text, reason: "it has neither \"==\" nor \"!=\"")
    }
    let path = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
    let value = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
    guard !path.isEmpty else {
      throw StateConditionError(
        text: text, reason: "the path before \"\(comparison.rawValue)\" is missing")
    }
    guard !value.isEmpty else {
      throw StateConditionError(
        text: text, reason: "the value after \"\(comparison.rawValue)\" is missing")
    }
    self.path = try StatePath(path)
    self.comparison = comparison
    self.value = value
  }

  /// Whether the condition holds in `state`. A path that leads nowhere in it makes neither
  /// comparison hold.
  public func holds(in state: Any) -> Bool {
    guard let found = try? self.path.value(in: state) else { return false }
    let matches = self.reads(String(customDumping: found), self.value)
    return self.comparison == .equal ? matches : !matches
  }

  public var description: String {
    "\(self.path) \(self.comparison.rawValue) \(self.value)"
  }

  /// Whether a dump reads as the value written: exactly, as a string without its quotes, as an
  /// enum case without its type (`.all` for `Todos.Filter.all`), or laid out on one line
  /// (`Song(id: 1, title: "A")` for a dump over several lines).
  public static func matches(_ dump: String, _ value: String) -> Bool {
    if dump == value || dump == "\"\(value)\"" { return true }
    if value.hasPrefix("."), dump.hasSuffix(value), !dump.contains("\n"),
      dump.dropLast(value.count).allSatisfy({ $0.isLetter || $0.isNumber || "._".contains($0) })
    {
      return true
    }
    return Self.oneLine(dump) == Self.oneLine(value)
  }

  private static func oneLine(_ text: String) -> String {
    var result = ""
    var pendingSpace = false
    for character in text {
      if character.isWhitespace {
        pendingSpace = true
        continue
      }
      if pendingSpace, let last = result.last, !"([".contains(last), !")],".contains(character) {
        result.append(" ")
      }
      pendingSpace = false
      result.append(character)
    }
    return result
  }
}

/// A state condition that does not parse.
public struct StateConditionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The condition as given.
  public let text: String
  /// What is wrong.
  public let reason: String

  public var description: String {
    """
    "\(self.text)" is not a condition: \(self.reason). Write PATH == VALUE or PATH != VALUE, \
    the value as "print PATH" shows it: count == 3, todos[0].isComplete == true.
    """
  }
}
