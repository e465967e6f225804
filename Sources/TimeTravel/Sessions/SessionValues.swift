/// A value a ``TimelineSession`` shows, for a command line to render.
public enum SessionValue {
  /// A value of the feature's own types: render it as `customDump` does.
  case typed(Any)
  /// Recorded JSON, already laid out, from a session without the feature's types.
  case json(String)
}

/// A state a ``TimelineSession`` shows, and the step it is the state after.
///
/// A session that only has recorded checkpoints answers with the nearest one at or before the
/// step asked for, and says so in `step`.
public struct SessionState {
  /// The state, or the value at the path asked for.
  public let value: SessionValue
  /// The step whose state this is.
  public let step: Int

  /// A state and the step it belongs to.
  public init(_ value: SessionValue, step: Int) {
    self.value = value
    self.step = step
  }
}

/// What changed between two states, in `customDump`'s diff format (`-` before, `+` after).
public struct StateDiff: Equatable, Sendable, CustomStringConvertible {
  /// The diff's lines, joined by newlines.
  public let text: String

  /// A diff, as `CustomDump.diff` writes it.
  public init(_ text: String) {
    self.text = text
  }

  public var description: String { self.text }
}

/// What sending an action on a diversion did.
public struct SentAction {
  /// What the action changed, or `nil` when nothing did.
  public let change: StateDiff?
  /// The dependencies it read, which answered with stand-ins: nothing was recorded for it.
  public let standIns: [String]

  /// The outcome of a sent action.
  public init(change: StateDiff?, standIns: [String]) {
    self.change = change
    self.standIns = standIns
  }
}
