import TimeTravel

/// A stop a front end has set on a session, under the front end's own identifier (the REPL's
/// watchpoint and breakpoint numbers, the debugger's breakpoint ids): a watched path, with a
/// condition or not, or an action breakpoint.
struct SessionStop<ID> {
  enum Kind {
    /// Stops where the value at the path changes; with a condition, where the condition comes
    /// to hold (it did not hold before the step, and holds after it).
    case watch(StatePath, condition: ValueCondition?)
    /// Stops at an action that matches.
    case breakpoint(ActionBreakpoint)
  }

  let id: ID
  let kind: Kind
}

/// A stop that holds at the step a search found, with what made it hold.
struct StopHit<ID> {
  enum Reason {
    /// The watched value changed from `old` to `new`, each as it prints; `nil` where the path
    /// led to no value.
    case watch(StatePath, old: String?, new: String?, condition: ValueCondition?)
    case breakpoint(ActionBreakpoint)
  }

  let id: ID
  let reason: Reason
}

extension TimelineSession {
  /// Moves forward (or back) to the next step at which one of `stops` holds, and returns the
  /// step with every stop that holds there, in the order of `stops`: the one search both the
  /// REPL's `continue` and the debugger's run.
  ///
  /// A step at which a watched value changes without any stop holding (a condition that does
  /// not come to hold there) is passed by, and the search goes on from it. Returns `nil`, with
  /// the session back where it was, when no step has a stop that holds or `isCancelled` says to
  /// stop.
  func searchStops<ID>(
    _ stops: [SessionStop<ID>], forward: Bool, isCancelled: () -> Bool
  ) throws -> (step: Int, hits: [StopHit<ID>])? {
    var paths: [StatePath] = []
    var breakpoints: [ActionBreakpoint] = []
    for stop in stops {
      switch stop.kind {
      case let .watch(path, _):
        if !paths.contains(where: { $0.description == path.description }) { paths.append(path) }
      case let .breakpoint(breakpoint):
        if !breakpoints.contains(breakpoint) { breakpoints.append(breakpoint) }
      }
    }
    let start = self.position
    var cancelled = false
    while let found = try self.search(
      forward: forward, watching: paths, breakpoints: breakpoints,
      isCancelled: {
        cancelled = cancelled || isCancelled()
        return cancelled
      })
    {
      let hits = found.stops.flatMap { Self.hits(of: stops, at: $0) }
      if !hits.isEmpty { return (found.step, hits) }
      if cancelled { break }
    }
    if self.position != start { try self.goto(start) }
    return nil
  }

  /// The stops that `found`, one thing a search stopped at, makes hold.
  private static func hits<ID>(of stops: [SessionStop<ID>], at found: SearchStop) -> [StopHit<ID>] {
    stops.compactMap { stop in
      switch (stop.kind, found) {
      case let (.watch(path, condition), .watch(changed, old, new))
      where path.description == changed.description:
        if let condition, condition.holds(forDump: old) || !condition.holds(forDump: new) {
          return nil
        }
        return StopHit(
          id: stop.id, reason: .watch(changed, old: old, new: new, condition: condition))
      case let (.breakpoint(breakpoint), .breakpoint(matched)) where breakpoint == matched:
        return StopHit(id: stop.id, reason: .breakpoint(matched))
      default:
        return nil
      }
    }
  }
}
