@_spi(Internals) import ComposableArchitecture
import Foundation
import TimeTravel

// `continue` and `reverse-continue`: forward or back to the next stop.
extension Interpreter.Command {
  /// `continue`.
  static let `continue` = Self(
    names: ["continue", "c"], usage: "continue",
    summary: "Go forward to the next step a watchpoint or breakpoint stops at."
  ) { interpreter, _ in try interpreter.search(forward: true) }

  /// `reverse-continue`.
  static let reverseContinue = Self(
    names: ["reverse-continue", "rc"], usage: "reverse-continue",
    summary: "Go back to the last step a watchpoint or breakpoint stops at: what last changed it."
  ) { interpreter, _ in try interpreter.search(forward: false) }
}

extension Interpreter {
  func search(forward: Bool) throws -> String {
    guard !self.stops.isEmpty else {
      throw InterpreterError(
        """
        Nothing to stop at: add a watchpoint ("watch PATH") or a breakpoint ("break ACTION").
        """
      )
    }
    var wasInterrupted = false
    // NB: The search asks whether to stop every 256 steps or so: past a thousand steps, it says
    // it is at work and how to stop it.
    var polls = 0
    let found = try self.debug.nextStop(forward: forward) {
      polls += 1
      if polls == 4 { self.notice?("Searching… (Ctrl-C stops the search)") }
      wasInterrupted = wasInterrupted || self.interrupted()
      return wasInterrupted
    }
    if polls >= 4 { self.notice?(nil) }
    let position = self.session.position
    guard let found else {
      if wasInterrupted { return "\nInterrupted: still at step \(position)." }
      return """
        No \(forward ? "later" : "earlier") step changes a watched value or matches a breakpoint: \
        still at step \(position).
        """
    }
    return (found.hits.map(self.reason(for:)) + [self.describePosition()]).joined(separator: "\n")
  }

  /// Why a search stopped, for one stop that holds.
  private func reason(for hit: StopHit<Int>) -> String {
    switch hit.reason {
    case let .watch(_, old, new, condition?):
      return self.style.heading("Watchpoint \(hit.id): \(condition)")
        + "\n  \(oneLine(SearchStop.shown(old))) → \(oneLine(SearchStop.shown(new)))"
    case let .watch(path, old, new, nil):
      let heading = self.style.heading("Watchpoint \(hit.id): \(path)")
      let (old, new) = (SearchStop.shown(old), SearchStop.shown(new))
      if !old.contains("\n"), !new.contains("\n") { return "\(heading)\n  \(old) → \(new)" }
      return "\(heading)\n  Old:\n\(old.indent(by: 4))\n  New:\n\(new.indent(by: 4))"
    case let .breakpoint(breakpoint):
      return self.style.heading("Breakpoint \(hit.id): \(breakpoint)")
    }
  }
}
