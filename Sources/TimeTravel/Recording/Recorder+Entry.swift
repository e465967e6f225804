// NB: Each way in three times over, for what the feature's types are: Swift picks the most
// specific at the call site, where the types are known, and a recorder cannot ask at run time
// whether a type is `Sendable`.

import ActionLog
import Foundation

extension Recorder where State: Encodable & Sendable, Action: Encodable & Sendable {
  /// Starts a recording: creates the file and writes its header.
  ///
  /// - Parameters:
  ///   - url: Where to write; the file must not exist.
  ///   - feature: The feature's identifier, which selects the reducer when the recording is
  ///     replayed.
  ///   - initialState: The state the store starts from.
  ///   - checkpointInterval: How many actions apart to write full state checkpoints; 100 by
  ///     default.
  ///   - metadata: Facts about the app (version, platform, a description) kept in the header.
  ///   - redacting: Paths of the state and of the actions whose values must not reach the file:
  ///     they are replaced by placeholders, and the header lists the paths. A path that matches
  ///     nothing by ``close()`` is reported as an issue.
  ///   - schemaVersion: The version of the feature's types (``ActionLog/FeatureSchema``); by
  ///     default, what the state type declares (``ActionLog/SchemaVersioned``), or 1.
  ///   - dependencies: The dependencies to capture; uuid, date and random by default.
  ///   - stepUpdates: Whether each action's record says what it changed in the state, worked out
  ///     on the writer's thread: what lets a replay compare every step, and a reader without
  ///     the feature show every state. On by default.
  ///   - startedAt: The wall-clock start written in the header; now by default.
  ///   - elapsed: The time since the start, for each action; a monotonic clock by default.
  ///   - options: How the writer behaves. Unless the options handle encoding failures, they are
  ///     reported as issues on ``flush()`` and ``close()``.
  public convenience init(
    url: URL,
    feature: String,
    initialState: State,
    checkpointInterval: Int = 100,
    metadata: [String: String] = [:],
    redacting redactions: Redactions = .none,
    schemaVersion: Int? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    stepUpdates: Bool = true,
    startedAt: Date = Date(),
    elapsed: (@Sendable () -> Duration)? = nil,
    options: LogWriter.Options = LogWriter.Options()
  ) throws {
    try self.init(
      encoding: .codable,
      url: url, feature: feature, initialState: initialState,
      checkpointInterval: checkpointInterval, metadata: metadata, redacting: redactions,
      schemaVersion: schemaVersion, dependencies: dependencies, stepUpdates: stepUpdates,
      startedAt: startedAt, elapsed: elapsed, options: options
    )
  }

  /// Starts a rolling recording in a folder, for recording all the time in the field: segments
  /// of it are written one after another, and the oldest are deleted once the retention no
  /// longer keeps them, so the folder holds at most the retention and one segment more.
  ///
  /// ```swift
  /// let recorder = try RecorderOf<Todos>(
  ///   directory: recordings, feature: "todos", initialState: Todos.State(),
  ///   retention: .minutes(10)
  /// )
  /// ```
  ///
  /// Each segment is an ordinary recording that starts from the state at its start, so what is
  /// kept replays without what was deleted. ``bugReport(to:last:note:metadata:redacting:)``
  /// makes one file of the last minutes. Starting removes the temporary files a crash left in
  /// the folder, and every session but the newest `keepingPreviousSessions` (the one a crash may
  /// have cut short: see ``unfinishedSessions(in:)``).
  ///
  /// - Parameters:
  ///   - directory: The folder for the segments; created if missing.
  ///   - retention: How much to keep: `.minutes(10)`, `.bytes(50 << 20)`, or `.both(…)`.
  ///   - session: The session's name, which its segments' names start with; by default the
  ///     feature, the start time and a random suffix
  ///     (``LogDirectory/newSessionName(feature:startedAt:)``).
  ///   - keepingPreviousSessions: How many earlier sessions in the folder to keep; 1 by default.
  ///   - segmentBytes: The size at which a segment ends; a tenth of the retention's bytes by
  ///     default.
  ///   - segmentDuration: The time at which a segment ends; a tenth of the retention's age by
  ///     default.
  ///   - Other parameters: As ``init(url:feature:initialState:checkpointInterval:metadata:redacting:schemaVersion:dependencies:stepUpdates:startedAt:elapsed:options:)``.
  ///     A segment can end only at a checkpoint, so `checkpointInterval` bounds how finely.
  public convenience init(
    directory: URL,
    feature: String,
    initialState: State,
    retention: LogWriter.Retention,
    session: String? = nil,
    keepingPreviousSessions: Int = 1,
    segmentBytes: Int? = nil,
    segmentDuration: Duration? = nil,
    checkpointInterval: Int = 100,
    metadata: [String: String] = [:],
    redacting redactions: Redactions = .none,
    schemaVersion: Int? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    stepUpdates: Bool = true,
    startedAt: Date = Date(),
    elapsed: (@Sendable () -> Duration)? = nil,
    options: LogWriter.Options = LogWriter.Options()
  ) throws {
    try self.init(
      encoding: .codable,
      directory: directory, feature: feature, initialState: initialState,
      retention: retention, session: session, keepingPreviousSessions: keepingPreviousSessions,
      segmentBytes: segmentBytes, segmentDuration: segmentDuration,
      checkpointInterval: checkpointInterval, metadata: metadata, redacting: redactions,
      schemaVersion: schemaVersion, dependencies: dependencies, stepUpdates: stepUpdates,
      startedAt: startedAt, elapsed: elapsed, options: options
    )
  }
}

extension Recorder where State: Sendable, Action: Sendable {
  /// Starts a recording: creates the file and writes its header. For `Sendable` types without `Encodable`:
  /// values are written on the writer's thread, by their generated code or by reflection.
  ///
  /// The parameters are those of the initializer for `Encodable` and `Sendable` types.
  public convenience init(
    url: URL,
    feature: String,
    initialState: State,
    checkpointInterval: Int = 100,
    metadata: [String: String] = [:],
    redacting redactions: Redactions = .none,
    schemaVersion: Int? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    stepUpdates: Bool = true,
    startedAt: Date = Date(),
    elapsed: (@Sendable () -> Duration)? = nil,
    options: LogWriter.Options = LogWriter.Options()
  ) throws {
    try self.init(
      encoding: .sendable,
      url: url, feature: feature, initialState: initialState,
      checkpointInterval: checkpointInterval, metadata: metadata, redacting: redactions,
      schemaVersion: schemaVersion, dependencies: dependencies, stepUpdates: stepUpdates,
      startedAt: startedAt, elapsed: elapsed, options: options
    )
  }

  /// Starts a rolling recording in a folder. For `Sendable` types without `Encodable`:
  /// values are written on the writer's thread, by their generated code or by reflection.
  ///
  /// The parameters are those of the initializer for `Encodable` and `Sendable` types.
  public convenience init(
    directory: URL,
    feature: String,
    initialState: State,
    retention: LogWriter.Retention,
    session: String? = nil,
    keepingPreviousSessions: Int = 1,
    segmentBytes: Int? = nil,
    segmentDuration: Duration? = nil,
    checkpointInterval: Int = 100,
    metadata: [String: String] = [:],
    redacting redactions: Redactions = .none,
    schemaVersion: Int? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    stepUpdates: Bool = true,
    startedAt: Date = Date(),
    elapsed: (@Sendable () -> Duration)? = nil,
    options: LogWriter.Options = LogWriter.Options()
  ) throws {
    try self.init(
      encoding: .sendable,
      directory: directory, feature: feature, initialState: initialState,
      retention: retention, session: session, keepingPreviousSessions: keepingPreviousSessions,
      segmentBytes: segmentBytes, segmentDuration: segmentDuration,
      checkpointInterval: checkpointInterval, metadata: metadata, redacting: redactions,
      schemaVersion: schemaVersion, dependencies: dependencies, stepUpdates: stepUpdates,
      startedAt: startedAt, elapsed: elapsed, options: options
    )
  }
}

extension Recorder {
  /// Starts a recording: creates the file and writes its header. For types not proven `Sendable`: each state
  /// and action is encoded on the sending thread, where it is safe to read.
  ///
  /// The parameters are those of the initializer for `Encodable` and `Sendable` types.
  public convenience init(
    url: URL,
    feature: String,
    initialState: State,
    checkpointInterval: Int = 100,
    metadata: [String: String] = [:],
    redacting redactions: Redactions = .none,
    schemaVersion: Int? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    stepUpdates: Bool = true,
    startedAt: Date = Date(),
    elapsed: (@Sendable () -> Duration)? = nil,
    options: LogWriter.Options = LogWriter.Options()
  ) throws {
    try self.init(
      encoding: .whereItIs,
      url: url, feature: feature, initialState: initialState,
      checkpointInterval: checkpointInterval, metadata: metadata, redacting: redactions,
      schemaVersion: schemaVersion, dependencies: dependencies, stepUpdates: stepUpdates,
      startedAt: startedAt, elapsed: elapsed, options: options
    )
  }

  /// Starts a rolling recording in a folder. For types not proven `Sendable`: each state
  /// and action is encoded on the sending thread, where it is safe to read.
  ///
  /// The parameters are those of the initializer for `Encodable` and `Sendable` types.
  public convenience init(
    directory: URL,
    feature: String,
    initialState: State,
    retention: LogWriter.Retention,
    session: String? = nil,
    keepingPreviousSessions: Int = 1,
    segmentBytes: Int? = nil,
    segmentDuration: Duration? = nil,
    checkpointInterval: Int = 100,
    metadata: [String: String] = [:],
    redacting redactions: Redactions = .none,
    schemaVersion: Int? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    stepUpdates: Bool = true,
    startedAt: Date = Date(),
    elapsed: (@Sendable () -> Duration)? = nil,
    options: LogWriter.Options = LogWriter.Options()
  ) throws {
    try self.init(
      encoding: .whereItIs,
      directory: directory, feature: feature, initialState: initialState,
      retention: retention, session: session, keepingPreviousSessions: keepingPreviousSessions,
      segmentBytes: segmentBytes, segmentDuration: segmentDuration,
      checkpointInterval: checkpointInterval, metadata: metadata, redacting: redactions,
      schemaVersion: schemaVersion, dependencies: dependencies, stepUpdates: stepUpdates,
      startedAt: startedAt, elapsed: elapsed, options: options
    )
  }
}
