import Foundation

// `goto STEP|+SECONDS`: to a step, or to the last action by a time.
extension Interpreter.Command {
  /// `goto STEP|+SECONDS`.
  static let goto = Self(
    names: ["goto", "g"], usage: "goto STEP|+SECONDS",
    summary: "Go to a step (0 is the initial state), or to the last action by a time: goto +1.5s."
  ) { interpreter, arguments in try interpreter.goto(arguments.first) }
}

extension Interpreter {
  func goto(_ argument: String?) throws -> String {
    guard let argument else {
      throw InterpreterError(
        "goto needs a step, such as \"goto 12\", or a time, such as \"goto +1.5s\"."
      )
    }
    if let step = Int(argument) { return try self.move(to: step) }
    var text = Substring(argument)
    if text.hasPrefix("+") { text = text.dropFirst() }
    if text.hasSuffix("s") { text = text.dropLast() }
    guard argument.hasPrefix("+") || argument.hasSuffix("s"), let value = Double(text), value >= 0,
      value.isFinite
    else {
      throw InterpreterError(
        "\"\(argument)\" is neither a step nor a time: write \"goto 12\" or \"goto +1.5s\"."
      )
    }
    let recording = self.session.recording
    let time = Duration.milliseconds(Int64((value * 1_000).rounded()))
    return try self.move(to: recording.action(atTime: time))
  }
}
