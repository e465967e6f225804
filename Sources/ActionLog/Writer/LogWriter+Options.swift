import StepChanges

extension LogWriter {
  /// How the writer behaves.
  public struct Options: Sendable {
    /// When to `fsync`; ``SyncPolicy/onFlush`` by default.
    public var syncPolicy: SyncPolicy
    /// The longest a record waits before it is written; 100 ms by default.
    public var flushInterval: Duration
    /// How many records may wait before the writer is woken early; 1,024 by default.
    public var batchSize: Int
    /// How many records may wait before ``LogWriter/append(_:)`` blocks; 65,536 by default.
    public var maximumPendingRecords: Int
    /// How much memory the records waiting for the writer may hold, in bytes, before
    /// ``LogWriter/append(_:)`` blocks; 64 MiB by default. A waiting action holds the state
    /// after it, whose collections its reducer's next change copies: each is counted as large
    /// as the last state the writer encoded whole (the initial state, a checkpoint), and as the
    /// last action it wrote. The records the writer is working on count until it is done with
    /// them.
    public var maximumPendingBytes: Int = 64 << 20
    /// Encodes payloads.
    public var codec: any RecordCodec
    /// Told, on the writer's thread, when a record could not be encoded and a note replaced it.
    public var onEncodingFailure: (@Sendable (String) -> Void)?
    /// Every file operation goes through it; the machine's own by default.
    public var fileSystem: any LogFileSystem
    /// Told, on the writer's thread, when a rolling recording could not start a new segment
    /// (a full disk): the current one goes on, and the next checkpoint tries again.
    public var onRotationFailure: (@Sendable (String) -> Void)?
    /// Told once, on the thread that appends the first record after a write or sync failed,
    /// that recording stopped and why (see ``LogWriter/append(_:)``); when `nil`, a recorder
    /// reports an issue.
    public var onStop: (@Sendable (String) -> Void)?
    /// Whether an action's `update` is worked out from the states themselves where their types
    /// have the code the `@ObservableState` macro generates (visiting only what changed), rather
    /// than from their JSON; the operations are the same. On by default.
    public var changesFromValues = true

    /// Creates options.
    public init(
      syncPolicy: SyncPolicy = .onFlush,
      flushInterval: Duration = .milliseconds(100),
      batchSize: Int = 1_024,
      maximumPendingRecords: Int = 65_536,
      codec: any RecordCodec = CompactJSONCodec(),
      onEncodingFailure: (@Sendable (String) -> Void)? = nil,
      fileSystem: any LogFileSystem = .posix,
      onRotationFailure: (@Sendable (String) -> Void)? = nil,
      onStop: (@Sendable (String) -> Void)? = nil
    ) {
      self.fileSystem = fileSystem
      self.onRotationFailure = onRotationFailure
      self.onStop = onStop
      self.syncPolicy = syncPolicy
      self.flushInterval = flushInterval
      self.batchSize = max(1, batchSize)
      self.maximumPendingRecords = max(1, maximumPendingRecords)
      self.codec = codec
      self.onEncodingFailure = onEncodingFailure
    }
  }

  /// A record to append.
  public enum Entry: Sendable {
    /// An action the store processed; with `state`, the state after it, from which the writer
    /// works out the action's `update` (when the header has step updates); with `site`, the
    /// source line that sent it, which the writer numbers once per file (`via`).
    case action(
      seq: Int,
      time: Duration,
      origin: RecordedOrigin,
      value: any Encodable & Sendable,
      captured: CapturedValues,
      effects: JSONValueSource? = nil,
      state: (any Encodable & Sendable)? = nil,
      site: CallSite? = nil
    )
    /// The state after action `seq`.
    case checkpoint(seq: Int, state: any Encodable & Sendable)
    /// A warning, attached to the action `seq`.
    case note(seq: Int, text: String)
    /// What happened to shared values after action `seq` (0: before the first).
    case shared(seq: Int, SharedEntry)
  }

  /// What a shared record says.
  public enum SharedEntry: Sendable {
    /// The places of the state after the action (or of the initial state, at 0) that share a
    /// value, by the value's name: JSON Pointers.
    case places([String: [String]])
    /// The places of action `seq` that carry shared values (a pushed screen's state holding
    /// one), by the value's name: JSON Pointers into the action.
    case actionPlaces([String: [String]])
    /// The shared value `name` took `value`, which the recorded reducers did not make.
    case value(name: String, source: RecordedShared.Source, value: any Encodable & Sendable)
  }
}

/// A JSON value made on the writer's thread rather than the sending one: what an action's
/// reducer returned, described only when the writer encodes the record.
public struct JSONValueSource: Sendable {
  private let make: @Sendable () -> JSONValue?

  /// A value `make` describes when asked; `nil` leaves the field out.
  public init(_ make: @escaping @Sendable () -> JSONValue?) {
    self.make = make
  }

  /// The value.
  public func callAsFunction() -> JSONValue? {
    self.make()
  }
}
