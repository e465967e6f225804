/// A damaged or unexpected record found while opening a recording.
public struct RecordProblem: Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with the record.
  public enum Kind: Sendable, Equatable {
    /// The checksum in front of the payload does not match the payload.
    case checksumMismatch(written: UInt32, computed: UInt32)
    /// The line does not start with eight lowercase hex digits and a space.
    case malformedFrame
    /// The line is longer than ``ReadLimits/maximumRecordLength``.
    case tooLong(limit: Int)
    /// The payload is not a record: its kind or sequence number cannot be read.
    case unreadablePayload(String)
    /// An action's sequence number is not one more than the previous action's.
    case sequenceGap(expected: Int, found: Int)
    /// Actions missing before this record, lost with damaged records that were skipped.
    case lostActions(ClosedRange<Int>)
    /// A record that cannot be where it is: a second header, a checkpoint for an action not
    /// recorded yet.
    case misplaced(String)
  }

  /// The record's number: its line in the file, from 1 (the header).
  public let record: Int
  /// The byte offset of the record's first byte in the file.
  public let offset: Int
  /// What is wrong.
  public let kind: Kind

  /// Creates a problem report.
  public init(record: Int, offset: Int, kind: Kind) {
    self.record = record
    self.offset = offset
    self.kind = kind
  }

  public var description: String {
    let place = "record \(self.record) (byte offset \(self.offset))"
    switch self.kind {
    case let .checksumMismatch(written, computed):
      return """
        \(place) is damaged: its checksum says \(hex(written)) but its payload sums to \
        \(hex(computed))
        """
    case .malformedFrame:
      return "\(place) is damaged: it does not start with an 8-digit checksum and a space"
    case let .tooLong(limit):
      return "\(place) is longer than the limit of \(limit) bytes"
    case let .unreadablePayload(reason):
      return "\(place) is not a record: \(reason)"
    case let .sequenceGap(expected, found):
      return "\(place) is action \(found), but action \(expected) was expected: actions are missing"
    case let .lostActions(range):
      let actions =
        range.count == 1
        ? "action \(range.lowerBound) is" : "actions \(range.lowerBound)–\(range.upperBound) are"
      return "\(place) comes after a gap: \(actions) missing before it"
    case let .misplaced(reason):
      return "\(place) is out of place: \(reason)"
    }
  }
}

private func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}

/// What an effect's action may name as its trigger, for messages: an action before `seq`.
func earlierActions(before seq: Int) -> String {
  seq <= 1
    ? "an earlier action: action 1 comes first, so no effect can have fed it back"
    : "an earlier action: an action an effect fed back names the action whose effect it was, "
      + "from 1 to \(seq - 1)"
}
