/// Why a timeline cannot open a recording or go where it was asked.
public enum TimelineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The recording is of another feature.
  case otherFeature(expected: String, found: String)
  /// The recording's state or action type is not the reducer's.
  case otherTypes(expected: String, found: String)
  /// A step outside the recording.
  case outOfRange(step: Int, count: Int)
  /// The timeline is on a diversion: it must return to the recording before it moves.
  case diverted(step: Int, sent: Int)
  /// Re-recording a recording of an older version: migrate it first.
  case rerecordNeedsCurrentVersion(recorded: Int)
  /// The state type is not `Encodable`, and writing a state needs it.
  case stateNotEncodable(type: String)

  public var description: String {
    switch self {
    case let .otherFeature(expected, found):
      return """
        This recording is of the feature "\(found)", not "\(expected)". Open it with the \
        reducer of "\(found)".
        """
    case let .otherTypes(expected, found):
      return """
        This recording's types are \(found), but the reducer's are \(expected). It was recorded \
        with another version of the feature, or another feature with the same name.
        """
    case let .outOfRange(step, count):
      return "There is no step \(step): the recording has steps 0 (the initial state) to \(count)."
    case let .diverted(step, sent):
      return """
        You are on a diversion from step \(step) (\(sent) action\(sent == 1 ? "" : "s") sent): \
        "discard" returns to the recording.
        """
    case let .rerecordNeedsCurrentVersion(recorded):
      return """
        This recording is at version \(recorded) of the feature and is read through migrations: \
        re-recording it would change its actions. Migrate it first (replay migrate FILE -o \
        NEW), then re-record the new file.
        """
    case let .stateNotEncodable(type):
      return "\(type) is not Encodable: a recording's states are written as JSON."
    }
  }
}
