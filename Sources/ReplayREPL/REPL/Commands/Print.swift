import Foundation
import TimeTravel

// `print [PATH]` and `action [STEP]`: the state or a value in it, and the action of a step.
extension Interpreter.Command {
  /// `print [PATH]`.
  static let print = Self(
    names: ["print", "p"], usage: "print [PATH [== VALUE]]",
    summary:
      "Show the state, the value at a path such as todos[0].description, or whether it equals a value."
  ) { interpreter, arguments in
    // NB: The rest of the line, so that a path may hold a space: `path[id: 0]`.
    let typed = arguments.text.trimmingCharacters(in: .whitespaces)
    if ValueCondition.isCondition(typed) {
      let condition = try ValueCondition(typed)
      let value = try interpreter.session.state(at: condition.condition.path).value.text
      guard !condition.holds(forDump: value) else { return "true" }
      return "false: \(condition.condition.path) is \(oneLine(value))"
    }
    let path = try typed.isEmpty ? nil : StatePath(typed)
    let session = interpreter.session
    let state = try session.state(at: path)
    guard state.step != session.position else { return state.value.text }
    return """
      \(state.value.text)
      (Recorded at step \(state.step), the nearest checkpoint: the states between need the reducer.)
      """
  }

  /// `action [STEP]`.
  static let action = Self(
    names: ["action", "a"], usage: "action [STEP]",
    summary: "Show the action that led to a step (the current one by default)."
  ) { interpreter, arguments in
    let step = try interpreter.actionStep(
      arguments.first, refusingZeroBecause: "no action led to it")
    return try interpreter.session.actionText(at: step)
  }
}
