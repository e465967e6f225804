import Foundation
import TimeTravel

// `watch PATH`, `break ACTION`, `delete [N]`: the stops that searches stop at.
extension Interpreter.Command {
  /// `watch PATH`.
  static let watch = Self(
    names: ["watch", "w"], usage: "watch PATH [== VALUE]",
    summary:
      "Stop searches where the value at a path changes, or comes to equal a value (or not: !=)."
  ) { interpreter, arguments in try interpreter.watch(arguments.text) }

  /// `break ACTION`.
  static let `break` = Self(
    names: ["break", "b"], usage: "break ACTION",
    summary: "Stop searches at actions with this case name, or with this text in their dump."
  ) { interpreter, arguments in try interpreter.addBreakpoint(arguments.text) }

  /// `delete [N]`.
  static let delete = Self(
    names: ["delete"], usage: "delete [N]",
    summary: "Delete watchpoint or breakpoint N, or all of them."
  ) { interpreter, arguments in try interpreter.delete(arguments.first) }
}

extension Interpreter {
  func watch(_ text: String) throws -> String {
    guard !text.isEmpty else {
      throw InterpreterError(
        "watch needs a state path, such as \"watch todos[0].isComplete\"."
      )
    }
    guard self.session.isReplayable || (self.session as? ReadOnlySession)?.hasEveryState == true
    else {
      let reason = (self.session as? ReadOnlySession)?.reason ?? "this recording cannot be re-run"
      throw InterpreterError("A watchpoint re-runs the reducer, but \(reason).")
    }
    if ValueCondition.isCondition(text) {
      let condition = try ValueCondition(text)
      let now = try? self.session.state(at: condition.condition.path)
      let number = self.addStop(.condition(condition))
      let holds = condition.holds(forDump: now?.value.text)
      return "Watchpoint \(number): \(condition) (\(holds ? "holds" : "does not hold") now"
        + ": \(condition.condition.path) is "
        + (now.map { oneLine($0.value.text) } ?? "absent at this step") + ")"
    }
    let path = try StatePath(text)
    let number = self.addStop(.watch(path))
    let now =
      (try? self.session.state(at: path)).map { "now \(oneLine($0.value.text))" }
      ?? "absent at this step"
    return "Watchpoint \(number): \(path) (\(now))"
  }

  func addBreakpoint(_ text: String) throws -> String {
    guard !text.isEmpty else {
      throw InterpreterError(
        "break needs an action case name or text, such as \"break incrementButtonTapped\"."
      )
    }
    let number = self.addStop(.breakpoint(ActionBreakpoint(text)))
    let known = self.caseNames().contains(text)
    return "Breakpoint \(number): \(text)"
      + (known ? "" : " (no action case has this name: it stops at actions whose dump contains it)")
  }

  func addStop(_ kind: Stop.Kind) -> Int {
    self.debug.addStop(kind)
  }

  func delete(_ argument: String?) throws -> String {
    guard let argument else {
      guard !self.stops.isEmpty else { return "No watchpoints or breakpoints to delete." }
      let count = self.debug.removeAllStops()
      return count == 1
        ? "Deleted the watchpoint or breakpoint."
        : "Deleted all \(count) watchpoints and breakpoints."
    }
    guard let number = Int(argument), self.debug.removeStop(number) else {
      let numbers = self.stops.map { String($0.number) }.joined(separator: ", ")
      throw InterpreterError(
        "There is no watchpoint or breakpoint \"\(argument)\""
          + (numbers.isEmpty ? "." : " (the numbers are \(numbers): see \"info breakpoints\").")
      )
    }
    return "Deleted \(number)."
  }
}
