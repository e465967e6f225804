@_spi(Internals) import ActionLog
import ComposableArchitecture
import CustomDump
import Foundation
import TimeTravel

/// A recording whose feature this `replay` cannot re-run: it shows the recorded states (every
/// step's, from the recording's step updates, or else the checkpoints') and the actions as JSON,
/// and says what needs the feature.
final class ReadOnlySession: TimelineSession {
  let recording: Recording
  private(set) var position = 0
  /// Where the last search stopped, so that `reverse-continue` from there goes further back.
  private var lastSearchStop: Int?
  /// The recording's states, walked as the session moves.
  private var states: RecordedStates
  /// Why the recording cannot be re-run: `this replay does not have the feature "x" linked in`.
  let reason: String

  init(recording: Recording, reason: String) {
    self.recording = recording
    self.reason = reason
    self.states = RecordedStates(recording)
  }

  /// Whether every step's state can be shown: the recording has step updates.
  var hasEveryState: Bool { self.recording.hasEveryState }

  /// What to tell the person on opening the recording.
  var note: String {
    guard !self.hasEveryState else {
      return """
        read-only: \(self.reason). It shows every step's state as recorded and actions as JSON; \
        what re-runs the reducer (verify, skip, send) needs a replay built with \
        ReplayFeature("\(self.recording.header.feature)") { YourReducer() } (see "replay --help").
        """
    }
    return """
      read-only: \(self.reason). It shows the states recorded at checkpoints, and actions as \
      JSON. To step through every state, build a replay with \
      ReplayFeature("\(self.recording.header.feature)") { YourReducer() } (see "replay --help").
      """
  }

  var count: Int { self.recording.count }
  var isReplayable: Bool { false }
  var divertedAt: (step: Int, sent: Int)? { nil }

  func goto(_ step: Int) throws {
    guard step >= 0, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    self.position = step
  }

  /// The recorded state at or before a step (the step's own, with step updates): its step and
  /// value.
  private func checkpointState(atOrBefore step: Int) throws -> (step: Int, value: Any) {
    if self.hasEveryState {
      return (step, try self.states.state(after: step).foundationValue)
    }
    let checkpoint = self.recording.checkpoint(atOrBefore: step)
    let json =
      checkpoint == 0
      ? try self.recording.initialState(as: JSONValue.self)
      : try self.recording.checkpoint(after: checkpoint, as: JSONValue.self)
    return (checkpoint, json.foundationValue)
  }

  var currentState: Any {
    (try? self.checkpointState(atOrBefore: self.position).value) ?? [String: Any]()
  }

  func state(at path: StatePath?) throws -> SessionState {
    let (checkpoint, state) = try self.checkpointState(atOrBefore: self.position)
    let value = try path.map { try $0.value(in: state) } ?? state
    return SessionState(.json(prettyJSON(value)), step: checkpoint)
  }

  func encodedState(at step: Int) throws -> [UInt8]? {
    nil
  }

  func actionValue(at step: Int) throws -> SessionValue {
    guard step >= 1, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    return .json(try self.recording.actionJSON(step))
  }

  func action(at step: Int, matches breakpoint: ActionBreakpoint) throws -> Bool {
    let json = try self.recording.actionJSON(step)
    return json.contains(breakpoint.text)
  }

  func actionCaseNames(limit: Int) throws -> Set<String> {
    var names: Set<String> = []
    func visit(_ value: Any) {
      if let object = value as? [String: Any] {
        for (key, member) in object {
          if !key.hasPrefix("_") { names.insert(key) }
          visit(member)
        }
      } else if let array = value as? [Any] {
        array.forEach(visit)
      }
    }
    for step in stride(from: 1, through: min(limit, self.count), by: 1) {
      guard let json = try? self.recording.actionJSON(step),
        let value = try? JSONSerialization.jsonObject(
          with: Data(json.utf8), options: .fragmentsAllowed
        )
      else { continue }
      visit(value)
    }
    return names
  }

  func changes(from: Int, to: Int) throws -> StateDiff? {
    for step in [from, to] {
      guard step >= 0, step <= self.count else {
        throw TimelineError.outOfRange(step: step, count: self.count)
      }
      guard step == 0 || self.hasEveryState || self.recording.checkpoints.contains(step) else {
        let recorded = ([0] + self.recording.checkpoints).map(String.init).joined(separator: ", ")
        throw InterpreterError(
          "Step \(step) has no recorded state, and \(self.reason): diff compares steps \(recorded)."
        )
      }
    }
    let before = prettyJSON(try self.checkpointState(atOrBefore: from).value)
    let after = prettyJSON(try self.checkpointState(atOrBefore: to).value)
    return before == after ? nil : CustomDump.diff(before, after).map(StateDiff.init)
  }

  private func needsFeature(_ what: String) -> InterpreterError {
    InterpreterError("\(what) re-runs the reducer, but \(self.reason).")
  }

  func verifyRecording(
    everyStep: Bool, willReplay: (_ step: Int) -> Void, isCancelled: () -> Bool
  ) throws -> Divergence? {
    throw self.needsFeature("verify")
  }

  func effects(at step: Int) throws -> StepEffects {
    guard step >= 1, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    let recorded =
      self.recording.header.hasEffectLedger
      ? try EffectShape(ledgerJSON: self.recording.recordedEffects(ofAction: step)) : nil
    return StepEffects(
      step: step, recorded: recorded, replayed: nil,
      fedBack: self.recording.actionsFedBack(by: step))
  }

  func skipping(_ step: Int, isCancelled: () -> Bool) throws -> SkipOutcome? {
    throw self.needsFeature("skip")
  }

  func rerecord(
    to url: URL, willReplay: (_ step: Int) -> Void, isCancelled: () -> Bool
  ) throws -> RerecordSummary? {
    throw self.needsFeature("rerecord")
  }

  func search(
    forward: Bool,
    watching watches: [StatePath],
    breakpoints: [ActionBreakpoint],
    isCancelled: () -> Bool
  ) throws -> (step: Int, stops: [SearchStop])? {
    if !watches.isEmpty {
      guard self.hasEveryState else { throw self.needsFeature("A watchpoint") }
      return try self.searchStates(
        forward: forward, watching: watches, breakpoints: breakpoints, isCancelled: isCancelled)
    }
    let steps =
      forward
      ? Array(stride(from: self.position + 1, through: self.count, by: 1))
      : Array(stride(from: self.position - 1, through: 1, by: -1))
    for (index, step) in steps.enumerated() {
      if index % 256 == 0, isCancelled() { return nil }
      let hits = try breakpoints.filter { try self.action(at: step, matches: $0) }
      if !hits.isEmpty {
        self.position = step
        return (step, hits.map(SearchStop.breakpoint))
      }
    }
    return nil
  }

  func send(json: String) throws -> SentAction {
    throw self.needsFeature("send")
  }

  /// A search with watchpoints over the recorded states: forward to the next step that changes
  /// a watched value or matches a breakpoint, or back to the last one.
  private func searchStates(
    forward: Bool,
    watching watches: [StatePath],
    breakpoints: [ActionBreakpoint],
    isCancelled: () -> Bool
  ) throws -> (step: Int, stops: [SearchStop])? {
    func stops(at step: Int, from previous: Any, to current: Any) throws -> [SearchStop] {
      var stops: [SearchStop] = []
      for path in watches {
        let old = try? prettyJSON(path.value(in: previous))
        let new = try? prettyJSON(path.value(in: current))
        if old != new { stops.append(.watch(path, old: old, new: new)) }
      }
      for breakpoint in breakpoints where try self.action(at: step, matches: breakpoint) {
        stops.append(.breakpoint(breakpoint))
      }
      return stops
    }
    func stop(_ found: (step: Int, stops: [SearchStop])) -> (step: Int, stops: [SearchStop]) {
      self.position = found.step
      self.lastSearchStop = found.step
      return found
    }
    if forward {
      var previous = try self.states.state(after: self.position).foundationValue
      for step in stride(from: self.position + 1, through: self.count, by: 1) {
        if step % 256 == 0, isCancelled() { return nil }
        let current = try self.states.state(after: step).foundationValue
        let found = try stops(at: step, from: previous, to: current)
        if !found.isEmpty { return stop((step, found)) }
        previous = current
      }
      return nil
    }
    // Back: one checkpoint interval at a time, each walked forward once, latest first.
    var end = self.lastSearchStop == self.position ? self.position - 1 : self.position
    while end >= 1 {
      if isCancelled() { return nil }
      let start = max(0, self.recording.checkpoint(atOrBefore: end - 1))
      var previous = try self.states.state(after: start).foundationValue
      var latest: (step: Int, stops: [SearchStop])?
      for step in stride(from: start + 1, through: end, by: 1) {
        if step % 256 == 0, isCancelled() { return nil }
        let current = try self.states.state(after: step).foundationValue
        let found = try stops(at: step, from: previous, to: current)
        if !found.isEmpty { latest = (step, found) }
        previous = current
      }
      if let latest { return stop(latest) }
      end = start
    }
    return nil
  }

  func diversionChanges() throws -> StateDiff? { nil }

  func discardDiversion() {}
}

/// A JSON value as indented text with sorted keys.
func prettyJSON(_ value: Any, indent: String = "") -> String {
  let inner = indent + "  "
  switch value {
  case let object as [String: Any]:
    guard !object.isEmpty else { return "{}" }
    let members = object.sorted { $0.key < $1.key }.map { key, value in
      "\(inner)\(JSONString.quoted(key)): \(prettyJSON(value, indent: inner))"
    }
    return "{\n" + members.joined(separator: ",\n") + "\n\(indent)}"
  case let array as [Any]:
    guard !array.isEmpty else { return "[]" }
    return "[\n" + array.map { inner + prettyJSON($0, indent: inner) }.joined(separator: ",\n")
      + "\n\(indent)]"
  case let string as String:
    return JSONString.quoted(string)
  case is JSONNull:
    return "null"
  default:
    return "\(value)"
  }
}
