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

/// A number of steps typed as an argument: 1 when there is none.
func count(_ text: String?) throws -> Int {
  guard let text else { return 1 }
  guard let value = Int(text), value > 0 else {
    throw InterpreterError("\"\(text)\" is not a number of steps (a whole number from 1).")
  }
  return value
}
