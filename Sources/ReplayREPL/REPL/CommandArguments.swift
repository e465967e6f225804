/// A command that cannot run as typed: what is wrong and what to type instead.
struct InterpreterError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A step number typed as an argument.
func number(_ text: String) throws -> Int {
  guard let value = Int(text) else {
    throw InterpreterError("\"\(text)\" is not a step number.")
  }
  return value
}

extension Interpreter {
  /// The step an optional argument names, the current one by default; step 0 (the initial
  /// state) is refused with `why`: "no action led to it".
  func actionStep(_ argument: String?, refusingZeroBecause why: String) throws -> Int {
    let step = try argument.map { try number($0) } ?? self.session.position
    guard step != 0 else { throw InterpreterError("Step 0 is the initial state: \(why).") }
    return step
  }
}

/// A number of steps typed as an argument: 1 when there is none.
func count(_ text: String?) throws -> Int {
  guard let text else { return 1 }
  guard let value = Int(text), value > 0 else {
    throw InterpreterError("\"\(text)\" is not a number of steps (a whole number from 1).")
  }
  return value
}
