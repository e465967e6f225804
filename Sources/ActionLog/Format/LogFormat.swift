/// Constants of the action log format. The format itself is specified in the
/// <doc:LogFormat> article.
public enum LogFormat {
  /// The format version this library writes, and the newest it reads.
  public static let version = 1

  /// The file extension of action logs.
  public static let fileExtension = "actionlog"
}

/// The kinds of record a log holds, one per line.
public enum RecordKind: String, Sendable, Codable, CaseIterable {
  /// The first record: what was recorded, by what, when, from which state.
  case header
  /// One action the store processed.
  case action
  /// The full state after an action.
  case checkpoint
  /// A warning from the recorder, or a stand-in for an action it could not record.
  case note
  /// A shared value's change the recorded reducers did not make, or where a state's shared
  /// values sit.
  case shared
  /// The source line that action records name by number (`via`).
  case site
  /// The clean end of a recording.
  case end
}

/// Bounds on what a log file can make a reader do, so a damaged or hostile file cannot exhaust
/// memory or the stack.
public struct ReadLimits: Sendable, Equatable {
  /// The longest record line accepted, in bytes.
  public var maximumRecordLength: Int
  /// The deepest nesting of JSON arrays and objects accepted in a record.
  public var maximumJSONDepth: Int

  /// Creates limits.
  public init(maximumRecordLength: Int = 64 << 20, maximumJSONDepth: Int = 256) {
    self.maximumRecordLength = maximumRecordLength
    self.maximumJSONDepth = maximumJSONDepth
  }

  /// 64 MiB per record, 256 levels of JSON nesting.
  public static let `default` = ReadLimits()
}
