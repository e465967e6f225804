import ActionLog
import ComposableArchitecture
import CustomDump
import Foundation

/// A timeline whose reducer's types are hidden: the values a command line shows, typed, for it
/// to render.
///
/// ``Timeline`` conforms; so can a session over a recording whose feature is not at hand.
public protocol TimelineSession: AnyObject {
  /// The recording.
  var recording: Recording { get }
  /// The current step.
  var position: Int { get }
  /// The last step.
  var count: Int { get }
  /// Whether the session re-runs the reducer; a read-only one shows recorded checkpoints only.
  var isReplayable: Bool { get }
  /// Moves to a step.
  func goto(_ step: Int) throws
  /// The state at the current step (on a diversion, the diverted state), or the value at a path
  /// in it.
  func state(at path: StatePath?) throws -> SessionState
  /// The state at the current step as a value to look into, for completing paths.
  var currentState: Any { get }
  /// The action that led to a step.
  func actionValue(at step: Int) throws -> SessionValue
  /// Whether the action that led to `step` matches `breakpoint`.
  func action(at step: Int, matches breakpoint: ActionBreakpoint) throws -> Bool
  /// The names of the action's enum cases, at any depth, seen in the first `limit` actions.
  func actionCaseNames(limit: Int) throws -> Set<String>
  /// What changed between two steps, or `nil` when nothing did.
  func changes(from: Int, to: Int) throws -> StateDiff?
  /// The state after `step`, encoded as a recording holds it, or `nil` when the session cannot
  /// compute or encode it. Moves to `step`.
  func encodedState(at step: Int) throws -> [UInt8]?
  /// The first step (or, with `everyStep` false or a recording without step updates, the first
  /// checkpoint) today's reducer does not reproduce, or `nil`. `willReplay` is told each step
  /// before the reducer runs it: a trap in the reducer then has a step to be reported at.
  func verifyRecording(
    everyStep: Bool, willReplay: (_ step: Int) -> Void, isCancelled: () -> Bool
  ) throws -> Divergence?
  /// Writes the recording again to `url` with the states today's reducer computes at its
  /// checkpoints (see ``Timeline/rerecord(to:willReplay:isCancelled:)``).
  func rerecord(
    to url: URL, willReplay: (_ step: Int) -> Void, isCancelled: () -> Bool
  ) throws -> RerecordSummary?
  /// What the reducer returned at `step`, and what its effects fed back.
  func effects(at step: Int) throws -> StepEffects
  /// The recording replayed without the action at `step` and what its effects fed back.
  func skipping(_ step: Int, isCancelled: () -> Bool) throws -> SkipOutcome?
  /// Searches forward or back for a step that matches a breakpoint or changes a watched value,
  /// and moves there; `nil` when there is none or `isCancelled` said to stop.
  func search(
    forward: Bool,
    watching watches: [StatePath],
    breakpoints: [ActionBreakpoint],
    isCancelled: () -> Bool
  ) throws -> (step: Int, stops: [SearchStop])?
  /// Applies an action given as JSON on a diversion, and returns what it changed (or `nil`) and
  /// the dependencies it read, which answered with stand-ins.
  func send(json: String) throws -> SentAction
  /// The diversion's starting step and number of actions sent, if on one.
  var divertedAt: (step: Int, sent: Int)? { get }
  /// What the diversion changed from the recorded state at its step, or `nil` when nothing did.
  func diversionChanges() throws -> StateDiff?
  /// Leaves the diversion.
  func discardDiversion()
}

extension Timeline: TimelineSession {
  public var isReplayable: Bool { true }

  public func encodedState(at step: Int) throws -> [UInt8]? {
    try self.goto(step)
    guard let state = self.state as? any Encodable else { return nil }
    return try FoundationJSONCodec().encode(state)
  }

  public func verifyRecording(
    everyStep: Bool, willReplay: (_ step: Int) -> Void, isCancelled: () -> Bool
  ) throws -> Divergence? {
    try self.verify(everyStep: everyStep, willReplay: willReplay, isCancelled: isCancelled)
  }

  public var currentState: Any {
    self.diversion?.state ?? self.state
  }

  public func state(at path: StatePath?) throws -> SessionState {
    let state = self.diversion?.state ?? self.state
    guard let path, !path.components.isEmpty else {
      return SessionState(.typed(state), step: self.position)
    }
    return SessionState(.typed(try path.value(in: state)), step: self.position)
  }

  public func actionValue(at step: Int) throws -> SessionValue {
    .typed(try self.action(at: step).action)
  }

  public func changes(from: Int, to: Int) throws -> StateDiff? {
    try self.diff(from: from, to: to).map(StateDiff.init)
  }

  public func actionCaseNames(limit: Int) throws -> Set<String> {
    var names: Set<String> = []
    for step in stride(from: 1, through: min(limit, self.count), by: 1) {
      guard let action = try? self.action(at: step).action else { continue }
      names.formUnion(caseNames(of: action))
    }
    return names
  }

  public func search(
    forward: Bool,
    watching watches: [StatePath],
    breakpoints: [ActionBreakpoint],
    isCancelled: () -> Bool
  ) throws -> (step: Int, stops: [SearchStop])? {
    forward
      ? try self.continueForward(
        watching: watches, breakpoints: breakpoints, isCancelled: isCancelled)
      : try self.reverseContinue(
        watching: watches, breakpoints: breakpoints, isCancelled: isCancelled)
  }

  public func send(json: String) throws -> SentAction {
    let action: R.Action
    do {
      action = try JSONDecoder().decode(R.Action.self, from: Data(json.utf8))
    } catch let error as DecodingError {
      throw ActionJSONError(json: json, type: recordedTypeName(R.Action.self), error: error)
    }
    let (before, step) = self.send(action)
    let after = self.diversion?.state ?? before
    return SentAction(
      change: before == after ? nil : prunedDiff(before, after).map(StateDiff.init),
      standIns: step.overruns.keys.sorted()
    )
  }

  public var divertedAt: (step: Int, sent: Int)? {
    self.diversion.map { ($0.step, $0.actions.count) }
  }

  public func diversionChanges() throws -> StateDiff? {
    guard let diversion = self.diversion else { return nil }
    let recorded = try self.state(at: diversion.step)
    return recorded == diversion.state
      ? nil : prunedDiff(recorded, diversion.state).map(StateDiff.init)
  }
}

/// JSON that does not decode as the feature's action.
public struct ActionJSONError: Error, CustomStringConvertible {
  /// The JSON given.
  public let json: String
  /// The action type.
  public let type: String
  /// Why it does not decode.
  public let error: DecodingError

  public var description: String {
    self.message(about: "This JSON")
  }

  /// The message, about what was given (`This JSON`, `This action`).
  public func message(about subject: String) -> String {
    let path = self.error.codingPathDescription
    var reason = self.error.reason
    if reason.hasSuffix(".") { reason.removeLast() }
    if reason.hasPrefix("expected ")
      && reason.hasSuffix("Invalid number of keys found, expected one")
    {
      reason = "an action is an object with one key, the name of a case this type has"
    }
    return """
      \(subject) does not decode as \(self.type)\(path.isEmpty ? "" : " (at \(path))"): \(reason).
      """
  }
}
