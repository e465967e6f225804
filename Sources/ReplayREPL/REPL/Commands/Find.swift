import Foundation
import TimeTravel

// `find TEXT`: the steps whose action has a case name or text.
extension Interpreter.Command {
  /// `find TEXT`.
  static let find = Self(
    names: ["find", "f"], usage: "find TEXT",
    summary: "List the steps whose action has this case name or text."
  ) { interpreter, arguments in try interpreter.find(arguments.text) }
}

extension Interpreter {
  func find(_ text: String) throws -> String {
    guard !text.isEmpty else {
      throw InterpreterError("find needs text, such as \"find checkBoxToggled\".")
    }
    let breakpoint = ActionBreakpoint(text)
    var matches: [Int] = []
    for step in stride(from: 1, through: self.session.count, by: 1) {
      if step % 256 == 0, self.interrupted() {
        return self.findings(matches, text: text)
          + "\n\nInterrupted at step \(step): the steps after it were not searched."
      }
      if try self.session.action(at: step, matches: breakpoint) { matches.append(step) }
    }
    return self.findings(matches, text: text)
  }

  func findings(_ matches: [Int], text: String) -> String {
    guard !matches.isEmpty else { return "No action has \"\(text)\"." }
    let shown = 20
    let last = matches.prefix(shown).last ?? 1
    var lines = matches.prefix(shown).map { self.line(for: $0, upTo: last) }
    if matches.count > shown {
      lines.append(
        """
        … and \(matches.count - shown) more, up to step \(matches[matches.count - 1]): \
        "list FROM TO" shows them.
        """
      )
    }
    lines.append("\(matches.count) action\(matches.count == 1 ? "" : "s") found.")
    return lines.joined(separator: "\n")
  }
}
