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
    var watches: [StatePath] = []
    // The paths watched without a condition, which stop at any change.
    var plainWatches: Set<String> = []
    var conditions: [(number: Int, condition: ValueCondition)] = []
    var breakpoints: [ActionBreakpoint] = []
    for stop in self.stops {
      switch stop.kind {
      case let .watch(path):
        plainWatches.insert(path.description)
        if !watches.contains(where: { $0.description == path.description }) { watches.append(path) }
      case let .condition(condition):
        conditions.append((stop.number, condition))
        if !watches.contains(where: { $0.description == condition.condition.path.description }) {
          watches.append(condition.condition.path)
        }
      case let .breakpoint(breakpoint): breakpoints.append(breakpoint)
      }
    }
    var wasInterrupted = false
    // NB: The search asks whether to stop every 256 steps or so: past a thousand steps, it says
    // it is at work and how to stop it.
    var polls = 0
    let start = self.session.position
    var found: (step: Int, stops: [SearchStop])?
    var reasons: [String] = []
    // A conditional watchpoint watches its path; a step that changes the value without making
    // the condition come to hold is passed by, and the search goes on from it.
    while true {
      found = try self.session.search(
        forward: forward, watching: watches, breakpoints: breakpoints
      ) {
        polls += 1
        if polls == 4 { self.notice?("Searching… (Ctrl-C stops the search)") }
        wasInterrupted = wasInterrupted || self.interrupted()
        return wasInterrupted
      }
      guard let stops = found?.stops else { break }
      reasons = []
      for stop in stops {
        guard case let .watch(path, old, new) = stop else {
          reasons.append(self.reason(for: stop))
          continue
        }
        if plainWatches.contains(path.description) { reasons.append(self.reason(for: stop)) }
        for (number, condition) in conditions
        where condition.condition.path.description == path.description
          && !condition.holds(forDump: old == "‹absent›" ? nil : old)
          && condition.holds(forDump: new == "‹absent›" ? nil : new)
        {
          reasons.append(
            self.style.heading("Watchpoint \(number): \(condition)")
              + "\n  \(oneLine(old)) → \(oneLine(new))")
        }
      }
      if !reasons.isEmpty || wasInterrupted { break }
    }
    if polls >= 4 { self.notice?(nil) }
    if found == nil || reasons.isEmpty, self.session.position != start {
      // NB: The steps passed by moved the session: nothing was found, so it goes back.
      _ = try? self.session.goto(start)
    }
    let position = self.session.position
    guard found != nil, !reasons.isEmpty else {
      if wasInterrupted { return "\nInterrupted: still at step \(position)." }
      return """
        No \(forward ? "later" : "earlier") step changes a watched value or matches a breakpoint: \
        still at step \(position).
        """
    }
    return (reasons + [self.describePosition()]).joined(separator: "\n")
  }

  /// Why a search stopped at a watchpoint without a condition or a breakpoint.
  private func reason(for stop: SearchStop) -> String {
    switch stop {
    case let .watch(path, old, new):
      let number =
        self.stops.first { if case .watch(path) = $0.kind { true } else { false } }?.number ?? 0
      let heading = self.style.heading("Watchpoint \(number): \(path)")
      if !old.contains("\n"), !new.contains("\n") { return "\(heading)\n  \(old) → \(new)" }
      return "\(heading)\n  Old:\n\(old.indent(by: 4))\n  New:\n\(new.indent(by: 4))"
    case let .breakpoint(breakpoint):
      let stop = self.stops.first {
        if case .breakpoint(breakpoint) = $0.kind { true } else { false }
      }
      let number = stop?.number ?? 0
      return self.style.heading("Breakpoint \(number): \(breakpoint)")
    }
  }
}
