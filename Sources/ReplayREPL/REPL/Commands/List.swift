import Foundation

// `list [FROM [TO]]`: actions around the current step, or from a step.
extension Interpreter.Command {
  /// `list [FROM [TO]]`.
  static let list = Self(
    names: ["list", "l"], usage: "list [FROM [TO]]",
    summary: "List actions: around the current step, or from a step."
  ) { interpreter, arguments in try interpreter.list(arguments.words) }
}

extension Interpreter {
  func list(_ words: [String]) throws -> String {
    let count = self.session.count
    guard count > 0 else { return "(No actions)" }
    let position = self.session.position
    let from: Int
    let to: Int
    switch words.count {
    case 0:
      from = max(1, min(position - 4, count - 9))
      to = min(count, from + 9)
    case 1:
      from = try number(words[0])
      to = min(count, from + 9)
    default:
      from = try number(words[0])
      to = try number(words[1])
    }
    for step in [from, to] where !(1...count).contains(step) {
      throw InterpreterError("There is no action \(step): the recording has actions 1 to \(count).")
    }
    guard from <= to else { throw InterpreterError("\(from) comes after \(to).") }
    return (from...to).map { step in
      (step == position ? "→ " : "  ") + self.line(for: step, upTo: to)
    }.joined(separator: "\n")
  }
}
