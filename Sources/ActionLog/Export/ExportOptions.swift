import Foundation

/// How ``Recording/export(to:options:)`` writes a recording anew, as an attachment.
public struct ExportOptions: Sendable {
  /// Facts added to the header's metadata (replacing values of the same key; an empty value
  /// removes the key): app version, operating system, a description of what went wrong.
  public var metadata: [String: String]
  /// More to redact, on top of what the recorder redacted.
  public var redactions: Redactions
  /// Where to cut, to keep only the last actions; `nil` keeps them all.
  public var cut: Cut?
  /// Brings every value to this schema's version on the way (`replay migrate`): the header
  /// then says the new version, and keeps the original one and the steps applied.
  public var schema: FeatureSchema?
  /// States to write in place of the recorded checkpoints, as JSON, by the action they follow
  /// (`replay rerecord`). Only checkpoints the recording has are replaced.
  public var checkpointStates: [Int: [UInt8]]
  /// An effect ledger to write in place of the recorded one (`replay rerecord`): each action's
  /// `yields`, by sequence number; `nil` for none. The new recording then has a ledger, and an
  /// action missing here keeps what was recorded.
  public var effectLedger: [Int: JSONValue?]?
  /// Keeps only some actions (`replay shrink`), renumbered in order, with new checkpoints in
  /// place of the recorded ones; `nil` keeps them all. A ``cut`` is ignored with a subset.
  public var subset: Subset?
  /// Every file operation goes through it; the machine's own by default.
  public var fileSystem: any LogFileSystem

  /// Creates options.
  public init(
    metadata: [String: String] = [:], redactions: Redactions = .none, cut: Cut? = nil,
    schema: FeatureSchema? = nil, checkpointStates: [Int: [UInt8]] = [:],
    effectLedger: [Int: JSONValue?]? = nil, subset: Subset? = nil,
    fileSystem: any LogFileSystem = .posix
  ) {
    self.fileSystem = fileSystem
    self.metadata = metadata
    self.redactions = redactions
    self.cut = cut
    self.schema = schema
    self.checkpointStates = checkpointStates
    self.effectLedger = effectLedger
    self.subset = subset
  }

  /// The actions an export keeps when it keeps only some.
  ///
  /// Each keeps its time, dependency values and effects; an action an effect of a left-out
  /// action fed back loses its trigger. The recorded checkpoints are dropped, since their states
  /// followed every action: the subset brings its own.
  public struct Subset: Sendable {
    /// The actions kept, by their sequence numbers in the recording, in increasing order.
    public var actions: [Int]
    /// The checkpoints to write, as JSON, by the kept action they follow (its number in the
    /// recording).
    public var checkpointStates: [Int: [UInt8]]

    /// Creates a subset.
    public init(actions: [Int], checkpointStates: [Int: [UInt8]] = [:]) {
      self.actions = actions
      self.checkpointStates = checkpointStates
    }
  }

  /// A cut: the actions up to and including ``after`` are left out, and the state after it
  /// becomes the initial state.
  public struct Cut: Sendable {
    /// The last action left out.
    public var after: Int
    /// The state after that action as JSON, when the caller computed it; `nil` takes the
    /// checkpoint recorded there, which must exist.
    public var state: [UInt8]?

    /// Creates a cut.
    public init(after: Int, state: [UInt8]? = nil) {
      self.after = after
      self.state = state
    }
  }
}

/// What ``Recording/export(to:options:)`` wrote.
public struct ExportSummary: Sendable, Equatable {
  /// The number of actions in the new recording.
  public var actions: Int
  /// The actions left out at the start by a cut.
  public var cutActions: Int
  /// The size of the new file in bytes.
  public var bytes: Int
  /// The number of records, the header included.
  public var records: Int
  /// How many strings and numbers the export's own redactions replaced.
  public var redactedValues: Int
  /// The export's redaction paths that matched nothing.
  public var unmatched: Redactions
  /// The new recording's header, as read back.
  public var header: LogHeader
  /// How the new recording ends, as read back.
  public var ending: RecordingEnding
}
