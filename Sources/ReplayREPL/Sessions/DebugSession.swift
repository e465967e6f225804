import Foundation
import TimeTravel

/// One debugging session over a recording, owned by neither front end: the REPL's
/// `Interpreter` and the `DebugAdapter` each drive it (the adapter's `evaluate` runs REPL lines
/// over the same session).
///
/// It holds the timeline session commands work on, the scope stack `scope` narrows it through,
/// and the numbered watchpoints and breakpoints with their conditions and hit counts; a
/// `continue` searches with them (``nextStop(forward:isCancelled:)``).
final class DebugSession {
  /// The session commands work on: the recording's, or a child's cut from it (`scope`).
  private(set) var timeline: any TimelineSession
  /// The sessions `scope` narrowed from, innermost last, with what to go back to.
  private(set) var scopes: [Scoped] = []
  /// The watchpoints and breakpoints, in the order they were set.
  private(set) var stops: [Stop] = []
  private var nextStopNumber = 1
  /// The features this `replay` can re-run: the sessions `scope` opens re-run theirs.
  let catalog: FeatureCatalog

  init(_ timeline: any TimelineSession, catalog: FeatureCatalog) {
    self.timeline = timeline
    self.catalog = catalog
  }

  /// A watchpoint or breakpoint, numbered as gdb does: from 1, never reused.
  struct Stop {
    enum Kind {
      case watch(StatePath)
      /// Stops where the condition comes to hold.
      case condition(ValueCondition)
      case breakpoint(ActionBreakpoint)
    }
    let number: Int
    let kind: Kind
    /// How many times a search has stopped at it.
    var hits = 0

    /// The stop as a search takes it.
    var searched: SessionStop<Int> {
      switch self.kind {
      case let .watch(path): SessionStop(id: self.number, kind: .watch(path, condition: nil))
      case let .condition(condition):
        SessionStop(id: self.number, kind: .watch(condition.condition.path, condition: condition))
      case let .breakpoint(breakpoint): SessionStop(id: self.number, kind: .breakpoint(breakpoint))
      }
    }
  }

  /// A session `scope` narrowed from.
  struct Scoped {
    /// The session before.
    let outer: any TimelineSession
    /// Its watchpoints and breakpoints, which name its state and actions.
    let outerStops: [Stop]
    /// The child's recording.
    let child: ChildRecording
    /// Where it is written, removed on the way back.
    let folder: URL
  }

  // MARK: - Stops

  /// Adds a stop; returns its number.
  @discardableResult
  func addStop(_ kind: Stop.Kind) -> Int {
    let number = self.nextStopNumber
    self.nextStopNumber += 1
    self.stops.append(Stop(number: number, kind: kind))
    return number
  }

  /// Removes the stop numbered `number`; `false` when there is none.
  func removeStop(_ number: Int) -> Bool {
    guard let index = self.stops.firstIndex(where: { $0.number == number }) else { return false }
    self.stops.remove(at: index)
    return true
  }

  /// Removes every stop; returns how many there were.
  func removeAllStops() -> Int {
    defer { self.stops.removeAll() }
    return self.stops.count
  }

  /// Moves forward (or back) to the next step at which a stop holds, counting a hit for each
  /// that does; `nil`, without moving, when none holds or `isCancelled` says to stop.
  func nextStop(
    forward: Bool, isCancelled: () -> Bool
  ) throws -> (step: Int, hits: [StopHit<Int>])? {
    let found = try self.timeline.searchStops(
      self.stops.map(\.searched), forward: forward, isCancelled: isCancelled)
    for hit in found?.hits ?? [] {
      if let index = self.stops.firstIndex(where: { $0.number == hit.id }) {
        self.stops[index].hits += 1
      }
    }
    return found
  }

  // MARK: - Scopes

  /// Narrows the session to `inner`, a child's session cut from the current one: the current
  /// stops wait on the scope stack until ``leaveScope()``.
  func enterScope(_ inner: any TimelineSession, child: ChildRecording, folder: URL) {
    self.scopes.append(
      Scoped(outer: self.timeline, outerStops: self.stops, child: child, folder: folder))
    self.timeline = inner
    self.stops = []
  }

  /// Goes back to the session the innermost scope narrowed from, with its stops; `nil` when
  /// the session is not narrowed.
  func leaveScope() -> Scoped? {
    guard let scoped = self.scopes.popLast() else { return nil }
    self.timeline = scoped.outer
    self.stops = scoped.outerStops
    return scoped
  }
}
