import Foundation

// `step [N]`, `back [N]`, `first`, `last`: moving through the recording by steps.
extension Interpreter.Command {
  /// `step [N]`.
  static let step = Self(
    names: ["step", "s", "next", "n"], usage: "step [N]",
    summary: "Go N steps forward (1 by default)."
  ) { interpreter, arguments in
    try interpreter.move(by: try count(arguments.first), name: "step")
  }

  /// `back [N]`.
  static let back = Self(
    names: ["back", "reverse-step", "rs"], usage: "back [N]",
    summary: "Go N steps back (1 by default)."
  ) { interpreter, arguments in
    try interpreter.move(by: -(try count(arguments.first)), name: "back")
  }

  /// `first`.
  static let first = Self(names: ["first"], usage: "first", summary: "Go to the initial state.") {
    interpreter, _ in try interpreter.move(to: 0)
  }

  /// `last`.
  static let last = Self(names: ["last"], usage: "last", summary: "Go to the last step.") {
    interpreter, _ in try interpreter.move(to: interpreter.session.count)
  }
}

extension Interpreter {
  func move(to step: Int) throws -> String {
    try self.session.goto(step)
    return self.describePosition()
  }

  func move(by steps: Int, name: String) throws -> String {
    let position = self.session.position
    let target = position + steps
    guard target >= 0 else {
      throw InterpreterError(
        """
        \(name) \(-steps) goes past the initial state: you are at step \(position) ("first" goes \
        to 0).
        """
      )
    }
    guard target <= self.session.count else {
      throw InterpreterError(
        """
        \(name) \(steps) goes past the last step: you are at step \(position) of \
        \(self.session.count) \
        ("last" goes there).
        """
      )
    }
    return try self.move(to: target)
  }
}
