import ActionLog
import ComposableArchitecture
import CustomDump

/// Stops a search at an action: by case name (`checkBoxToggled`) or by text in the dumped action.
public struct ActionBreakpoint: Hashable, Sendable, CustomStringConvertible {
  /// What to look for.
  public let text: String

  /// Creates a breakpoint.
  public init(_ text: String) {
    self.text = text
  }

  /// Whether `action` is one to stop at: one of its cases, at any depth, is named `text`, or its
  /// dump contains `text`.
  public func matches(_ action: Any) -> Bool {
    caseNames(of: action).contains(self.text)
      || String(customDumping: action).contains(self.text)
  }

  public var description: String { self.text }
}

/// Why a search stopped.
public enum SearchStop: Sendable, Equatable, CustomStringConvertible {
  /// A watched value changed: each side as it prints, `nil` where the path led to no value
  /// (an element not in its collection yet, or any more; a case not the current one).
  case watch(StatePath, old: String?, new: String?)
  /// An action matched a breakpoint.
  case breakpoint(ActionBreakpoint)

  public var description: String {
    switch self {
    case let .watch(path, old, new):
      return "\(path) changed: \(SearchStop.shown(old)) → \(SearchStop.shown(new))"
    case let .breakpoint(breakpoint):
      return "breakpoint \"\(breakpoint)\""
    }
  }

  /// A watched value as a stop shows it: its printed form, or `(no value)` where there is none.
  public static func shown(_ value: String?) -> String {
    value ?? "(no value)"
  }
}

extension Timeline {
  /// Moves forward to the first later step whose action matches a breakpoint or changes a
  /// watched value, and returns it with what stopped there; `nil` (without moving) when no later
  /// step does, or when `isCancelled` says to stop.
  public func continueForward(
    watching watches: [StatePath],
    breakpoints: [ActionBreakpoint],
    isCancelled: () -> Bool = { false }
  ) throws -> (step: Int, stops: [SearchStop])? {
    if watches.isEmpty {
      return try self.searchActions(
        stride(from: self.position + 1, through: self.count, by: 1), breakpoints, isCancelled)
    }
    // Replays step after step from the current state, without caching what it passes, with
    // the replay's dependencies installed once for all of them.
    let start = self.position
    let found: (step: Int, stops: [SearchStop])? = try self.replayer.batch {
      var previous = try self.state(at: start)
      var watched = WatchedValues(watches, in: previous)
      var step = start
      // NB: Decoded once, for the replay and the breakpoints.
      var actions = self.replayer.actions(from: start + 1, through: self.count)
      while step < self.count {
        if step % 256 == 0, isCancelled() { return nil }
        step += 1
        var current = self.branch(previous, at: step - 1)
        guard let action = try actions.next() else { break }
        self.replayer.apply(action, to: &current)
        let stops = self.stops(action.action, from: previous, to: current, &watched, breakpoints)
        if !stops.isEmpty { return (step, stops) }
        previous = current
      }
      return nil
    }
    guard let found else { return nil }
    try self.goto(found.step)
    self.lastSearchStop = found.step
    return found
  }

  /// Moves back to the latest step at or before the current one (before it, when the last search
  /// already stopped here) whose action matches a breakpoint or changed a watched value: the
  /// action that last changed it.
  public func reverseContinue(
    watching watches: [StatePath],
    breakpoints: [ActionBreakpoint],
    isCancelled: () -> Bool = { false }
  ) throws -> (step: Int, stops: [SearchStop])? {
    var end = self.lastSearchStop == self.position ? self.position - 1 : self.position
    if watches.isEmpty {
      return try self.searchActions(
        stride(from: end, through: 1, by: -1), breakpoints, isCancelled)
    }
    // Scan one checkpoint interval at a time, replaying it forward once, latest interval first.
    while end >= 1 {
      if isCancelled() { return nil }
      let start = max(0, self.recording.checkpoint(atOrBefore: end - 1))
      var cancelled = false
      let latest: (step: Int, stops: [SearchStop])? = try self.replayer.batch {
        var previous = try self.state(at: start)
        var watched = WatchedValues(watches, in: previous)
        var latest: (step: Int, stops: [SearchStop])?
        var actions = self.replayer.actions(from: start + 1, through: end)
        for step in stride(from: start + 1, through: end, by: 1) {
          if step % 256 == 0, isCancelled() {
            cancelled = true
            return nil
          }
          var current = self.branch(previous, at: step - 1)
          guard let action = try actions.next() else { break }
          self.replayer.apply(action, to: &current)
          let stops = self.stops(action.action, from: previous, to: current, &watched, breakpoints)
          if !stops.isEmpty { latest = (step, stops) }
          previous = current
        }
        return latest
      }
      if cancelled { return nil }
      if let latest {
        try self.goto(latest.step)
        self.lastSearchStop = latest.step
        return latest
      }
      end = start
    }
    return nil
  }

  /// Goes to the first of `steps` whose action matches a breakpoint. Without watchpoints the
  /// states in between do not matter: only the actions are decoded, and the reducer runs only to
  /// reach the step found.
  private func searchActions(
    _ steps: StrideThrough<Int>,
    _ breakpoints: [ActionBreakpoint],
    _ isCancelled: () -> Bool
  ) throws -> (step: Int, stops: [SearchStop])? {
    guard !breakpoints.isEmpty else { return nil }
    for (index, step) in steps.enumerated() {
      if index % 256 == 255, isCancelled() { return nil }
      let hits = try self.breakpoints(breakpoints, matchedAt: step)
      if !hits.isEmpty {
        try self.goto(step)
        self.lastSearchStop = step
        return (step, hits.map(SearchStop.breakpoint))
      }
    }
    return nil
  }

  /// Whether the action that led to `step` matches `breakpoint`.
  ///
  /// Decided once for each distinct recorded action: an action read again with the same bytes
  /// (the same tap, tick or choice) is answered from what the first one gave, without decoding
  /// it or dumping it, which is most of the cost.
  public func action(at step: Int, matches breakpoint: ActionBreakpoint) throws -> Bool {
    try !self.breakpoints([breakpoint], matchedAt: step).isEmpty
  }

  /// The `breakpoints` the action at `step` matches.
  func breakpoints(
    _ breakpoints: [ActionBreakpoint], matchedAt step: Int
  ) throws -> [ActionBreakpoint] {
    guard step >= 1, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    let bytes = try self.recording.actionValueBytes(step)
    var decoded: R.Action?
    return try breakpoints.filter { breakpoint in
      try self.breakpointAnswers.answer(breakpoint, for: bytes) {
        if decoded == nil { decoded = try self.recording.action(step, as: R.Action.self).action }
        return decoded.map(breakpoint.matches) ?? false
      }
    }
  }

  /// What stops a search at the step of `action`, which led from `previous` to `current`;
  /// `watched` holds the watched values at `previous`, and then at `current`.
  private func stops(
    _ action: R.Action,
    from previous: R.State,
    to current: R.State,
    _ watched: inout WatchedValues,
    _ breakpoints: [ActionBreakpoint]
  ) -> [SearchStop] {
    var stops: [SearchStop] = []
    if previous != current {
      stops = watched.changes(to: current)
    }
    if !breakpoints.isEmpty {
      for breakpoint in breakpoints where breakpoint.matches(action) {
        stops.append(.breakpoint(breakpoint))
      }
    }
    return stops
  }
}

/// The values of watched paths at the step a search has reached, to compare the next step's with:
/// each path is read once per step, and values are dumped only where they differ.
struct WatchedValues {
  private let readers: [StatePath.Reader]
  private var values: [Any?]

  init(_ paths: [StatePath], in state: Any) {
    self.readers = paths.map { StatePath.Reader($0, in: state) }
    self.values = self.readers.map { try? $0.value(in: state) }
  }

  /// The watched values that `state` changes, as the search reports them; they become the
  /// values compared with next.
  mutating func changes(to state: Any) -> [SearchStop] {
    var stops: [SearchStop] = []
    for (index, reader) in self.readers.enumerated() {
      let path = reader.path
      let new = try? reader.value(in: state)
      defer { self.values[index] = new }
      let old = self.values[index]
      // NB: Equal by `==` is unchanged; anything else is compared as it prints, as before.
      if let old, let new, Self.areEqual(old, new) { continue }
      let oldText = old.map { String(customDumping: $0) }
      let newText = new.map { String(customDumping: $0) }
      if oldText != newText { stops.append(.watch(path, old: oldText, new: newText)) }
    }
    return stops
  }

  /// Whether two values of one `Equatable` type are equal.
  private static func areEqual(_ left: Any, _ right: Any) -> Bool {
    guard let left = left as? any Equatable else { return false }
    func open<T: Equatable>(_ left: T) -> Bool {
      guard let right = right as? T else { return false }
      return left == right
    }
    return open(left)
  }
}

/// The names of every enum case in a value, at any depth:
/// `todos(.element(id:action: .checkBoxToggled))`
/// has `todos`, `element` and `checkBoxToggled`.
func caseNames(of value: Any) -> Set<String> {
  var names: Set<String> = []
  func visit(_ value: Any, depth: Int) {
    guard depth < 32 else { return }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .enum {
      if let child = mirror.children.first, let label = child.label {
        names.insert(label)
      } else {
        names.insert("\(value)")
      }
    }
    for child in mirror.children {
      visit(child.value, depth: depth + 1)
    }
  }
  visit(value, depth: 0)
  return names
}

/// Which breakpoints matched which recorded actions, by the actions' bytes: two actions recorded
/// with the same bytes decode to the same action, so one answer holds for both. Bounded: past
/// its capacity it starts again empty.
struct BreakpointAnswers {
  private var answers: [ActionBreakpoint: [[UInt8]: Bool]] = [:]
  private var count = 0
  static let capacity = 65_536

  /// The answer for `breakpoint` and an action recorded as `bytes`: known, or `decide`d now.
  mutating func answer(
    _ breakpoint: ActionBreakpoint, for bytes: [UInt8], decide: () throws -> Bool
  ) rethrows -> Bool {
    if let known = self.answers[breakpoint]?[bytes] { return known }
    let answer = try decide()
    if self.count >= Self.capacity {
      self.answers.removeAll()
      self.count = 0
    }
    self.answers[breakpoint, default: [:]][bytes] = answer
    self.count += 1
    return answer
  }
}
