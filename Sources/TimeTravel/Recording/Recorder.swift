// NB: Over 400 lines on purpose: the recorder's two ways in (a file, a rolling folder) and
// what the recording reducer calls, around one set of books.

import ActionLog
import ComposableArchitecture
import ConcurrencyExtras
import Foundation

/// Records a feature's actions, the dependency values its reducer reads, and checkpoints of its
/// state, to an action log.
///
/// Put it on the root reducer with ``ComposableArchitecture/Reducer/recording(to:)``:
///
/// ```swift
/// let recorder = try Recorder(
///   url: URL(fileURLWithPath: "todos.actionlog"), feature: "todos", initialState: Todos.State()
/// )
/// let store = Store(initialState: Todos.State()) {
///   Todos().recording(to: recorder)
/// }
/// // … use the store …
/// try recorder.close()
/// ```
///
/// A feature's types need nothing for it: no `Codable`, no `Sendable`. A recording holds each
/// state and action as synthesized `Codable` would write it, whether or not the type declares
/// it: by the code the macros generate, by the type's own `Codable` where it has one, and by
/// reflection for the rest (a model from another module, a class, an error).
///
/// Recording costs the sending thread a copy-on-write copy of the action and of the state and an
/// enqueue: encoding, working out what each action changed, and writing happen on the
/// ``LogWriter``'s background thread. A state or an action whose type is not `Sendable` (a
/// `public` type that does not say it is, one that holds a class) cannot be handed to that
/// thread safely: it is encoded on the sending thread instead, which costs the send about what
/// encoding it costs.
public final class Recorder<State, Action>: @unchecked Sendable {
  // NB: Unchecked: a state or action of a type not proven `Sendable` never reaches the writer's
  // thread: `encoding` encodes it on the sending thread. The rest is locked or immutable.
  /// How many actions apart the recorder writes full state checkpoints.
  public let checkpointInterval: Int
  /// The dependencies whose values the recorder captures.
  public let dependencies: [RecordableDependency]
  /// Whether each action's record says what it changed in the state.
  public let writesStepUpdates: Bool
  /// The file being written: for a rolling recording, the segment being written.
  public var url: URL { self.writer.url }
  /// Where a rolling recording writes its segments; `nil` for a single file.
  public let rolling: LogWriter.Rolling?

  let books: RecorderBookkeeping
  let writer: LogWriter
  private let encodingFailures: LockIsolated<[String]>
  private let rotationFailures: LockIsolated<[String]>
  /// Says that recording stopped (``LogWriter/Options/onStop``); `nil`: an issue says it.
  private let onStop: (@Sendable (String) -> Void)?
  let fileSystem: any LogFileSystem
  private let elapsed: @Sendable () -> Duration
  /// The state after the last action, for the checkpoint at close; guarded by `books.lock`.
  /// While an action is reduced it holds nothing (see `begin`).
  let lastState = LastState<State>()
  /// What the recorder keeps of the values the state shares.
  let sharedValues = SharedValueRecording()
  /// How states and actions reach the writer.
  let encoding: ValueEncoding<State, Action>

  /// Starts a recording in a file, its states and actions reaching the writer as `encoding`
  /// says (see the public initializers in `Recorder+Entry.swift`).
  convenience init(
    encoding: ValueEncoding<State, Action>,
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
      feature: feature, initialState: initialState, checkpointInterval: checkpointInterval,
      metadata: metadata, redactions: redactions, schemaVersion: schemaVersion,
      dependencies: dependencies, stepUpdates: stepUpdates, startedAt: startedAt,
      elapsed: elapsed, options: options, rolling: nil, encoding: encoding
    ) { header, options in
      try LogWriter(
        url: url, header: header, initialState: encoding.state(initialState), options: options)
    }
  }

  /// Starts a rolling recording in a folder, its states and actions reaching the writer as
  /// `encoding` says.
  convenience init(
    encoding: ValueEncoding<State, Action>,
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
    if let session, session.isEmpty || session.hasPrefix(".") || session.contains("/") {
      throw ActionLogError.writeFailed(
        path: directory.appendingPathComponent(session).path,
        reason: "a session's name must not be empty, start with \".\" or hold \"/\"")
    }
    let fileSystem = options.fileSystem
    do {
      try fileSystem.createDirectory(directory.path)
    } catch {
      throw ActionLogError.writeFailed(path: directory.path, reason: "\(error)")
    }
    try LogDirectory.removeLeftovers(in: directory, fileSystem: fileSystem)
    let previous = try RecordedSession.all(in: directory, fileSystem: fileSystem)
    for session in previous.dropLast(max(0, keepingPreviousSessions)) {
      session.remove(fileSystem: fileSystem)
    }
    let rolling = LogWriter.Rolling(
      directory: directory,
      session: session ?? LogDirectory.newSessionName(feature: feature, startedAt: startedAt),
      retention: retention, segmentBytes: segmentBytes, segmentDuration: segmentDuration
    )
    try self.init(
      feature: feature, initialState: initialState, checkpointInterval: checkpointInterval,
      metadata: metadata, redactions: redactions, schemaVersion: schemaVersion,
      dependencies: dependencies, stepUpdates: stepUpdates, startedAt: startedAt,
      elapsed: elapsed, options: options, rolling: rolling, encoding: encoding
    ) { header, options in
      try LogWriter(
        rolling: rolling, header: header, initialState: encoding.state(initialState),
        options: options)
    }
  }

  init(
    feature: String,
    initialState: State,
    checkpointInterval: Int,
    metadata: [String: String],
    redactions: Redactions,
    schemaVersion: Int?,
    dependencies: [RecordableDependency],
    stepUpdates: Bool,
    startedAt: Date,
    elapsed: (@Sendable () -> Duration)?,
    options: LogWriter.Options,
    rolling: LogWriter.Rolling?,
    encoding: ValueEncoding<State, Action>,
    makeWriter: (LogHeader, LogWriter.Options) throws -> LogWriter
  ) throws {
    self.encoding = encoding
    var options = options
    let encodingFailures = LockIsolated<[String]>([])
    if options.onEncodingFailure == nil {
      // NB: Encoding happens on the writer's thread, where an issue would reach no test: keep
      // the failures, and report them from the caller's thread on `flush()` and `close()`.
      options.onEncodingFailure = { message in
        encodingFailures.withValue { $0.append(message) }
      }
    }
    let rotationFailures = LockIsolated<[String]>([])
    if options.onRotationFailure == nil {
      options.onRotationFailure = { message in
        rotationFailures.withValue { $0.append(message) }
      }
    }
    self.encodingFailures = encodingFailures
    self.rotationFailures = rotationFailures
    self.onStop = options.onStop
    self.rolling = rolling
    self.fileSystem = options.fileSystem
    self.checkpointInterval = max(1, checkpointInterval)
    self.dependencies = dependencies
    self.writesStepUpdates = stepUpdates
    self.books = RecorderBookkeeping(dependencies)
    self.writer = try makeWriter(
      LogHeader(
        feature: feature,
        stateType: recordedTypeName(State.self),
        actionType: recordedTypeName(Action.self),
        startedAt: startedAt,
        checkpointInterval: self.checkpointInterval,
        metadata: metadata,
        redactions: redactions,
        schemaVersion: schemaVersion ?? FeatureSchema.of(State.self).version,
        hasEffectLedger: true,
        hasStepUpdates: stepUpdates
      ),
      options
    )
    if let elapsed {
      self.elapsed = elapsed
    } else {
      let start = MonotonicClock.nanoseconds()
      self.elapsed = { .nanoseconds(MonotonicClock.nanoseconds() &- start) }
    }
    if let places = self.sharedValues.places(of: encoding.sharedSource(initialState)) {
      self.append(.shared(seq: 0, .places(places)))
    }
    self.sharedValues.keep(
      SharedChanges.observe { [weak self] change in self?.sharedValueChanged(change) })
  }

  /// The number of actions recorded so far.
  public var count: Int {
    self.books.count
  }

  /// Waits until every action recorded so far is written (and synced, as the writer's options
  /// say).
  ///
  /// Values that could not be encoded since the last flush are reported as issues here: each
  /// became a `note` record in the log.
  public func flush() throws {
    try self.writer.flush()
    self.reportEncodingFailures()
  }

  /// Writes a final checkpoint and the end record, and closes the file. Actions the store
  /// processes afterwards are not recorded.
  public func close() throws {
    self.sharedValues.stop()
    let final: (seq: Int, state: State)? = self.books.lock.withLock {
      self.books.close().flatMap { seq in self.lastState.value.map { (seq, $0) } }
    }
    if let final {
      let moment =
        _SharedHolders.anyExist && self.sharedValues.holdsShared
        ? self.sharedValues.moments.mark() : nil
      let state = self.encoding.state(final.state)
      self.append(
        .checkpoint(
          seq: final.seq,
          state: moment.map { ValueAtMoment(value: state, moment: $0) } ?? state))
      if moment != nil,
        let places = self.sharedValues.places(of: self.encoding.sharedSource(final.state))
      {
        self.append(.shared(seq: final.seq, .places(places)))
      }
    }
    try self.writer.close(at: self.elapsed())
    self.reportEncodingFailures()
    let unmatched = self.writer.unmatchedRedactions
    for (kind, paths) in [("state", unmatched.state), ("action", unmatched.actions)] {
      for path in paths {
        reportIssue(
          """
          The \(kind) redaction path \(path) matched no value in \(self.url.lastPathComponent). \
          Check its spelling against the recording's JSON (cut -c10- FILE | jq): if it is wrong, \
          what it meant to hide is in the file.
          """
        )
      }
    }
  }

  /// Hands a record to the writer. The first record to find the writer stopped (a full disk, a
  /// failed sync) says so, once: nothing appended after it is written.
  func append(_ entry: consuming LogWriter.Entry) {
    guard let failure = self.writer.append(entry) else { return }
    let reason = "\(failure)".trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    let message =
      self.rolling == nil
      ? """
      Recording stopped at action \(self.count): \(reason). The app goes on; actions from this \
      one on are not recorded.
      """
      : """
      Recording stopped at action \(self.count): \(reason). The app goes on; actions are not \
      recorded until a checkpoint finds room for a new segment, whose metadata says what is \
      missing (`gap`).
      """
    if let onStop = self.onStop { onStop(message) } else { reportIssue(message) }
  }

  private func reportEncodingFailures() {
    for failure in self.rotationFailures.withValue({ failures in
      defer { failures.removeAll() }
      return failures
    }) {
      reportIssue("The recorder \(failure).")
    }
    let failures = self.encodingFailures.withValue { failures in
      defer { failures.removeAll() }
      return failures
    }
    for failure in failures where _recorderFailuresSaid.isNew(failure) {
      reportIssue(
        """
        The recorder could not hold a value: \(failure). A note stands in its place in \
        \(self.url.lastPathComponent), and the app runs as it did; this is said once for each \
        kind of value.
        """
      )
    }
  }

  /// Appends a note to the recording, after the latest action.
  public func note(_ text: String) {
    self.append(.note(seq: self.count, text: text))
  }

  // MARK: - Called by the recording reducer

  /// Reserves the next sequence number for an action, works out where it came from, and starts
  /// capturing what its reducer reads from the dependencies in `base`.
  func begin(context: ActionContext?, base: DependencyValues) -> RecorderBookkeeping.Opened? {
    self.books.lock.withLock {
      guard var opened = self.books.begin(context: context, base: base) else { return nil }
      if _SharedHolders.anyExist && self.sharedValues.holdsShared {
        opened.moment = self.sharedValues.moments.mark()
      }
      // NB: Holding the last state shares its storage with the store's: the reducer's next
      // mutation would copy every collection in it, a cost that grows with the state. Let go of
      // it while the reducer runs; `finish` keeps the new one.
      self.lastState.clear()
      return opened
    }
  }

  /// The dependencies a store whose root reducer records is created with: `base` with the
  /// recorded dependencies wrapped.
  func prepare(storeDependencies base: DependencyValues) -> DependencyValues {
    self.books.lock.withLock { self.books.prepare(storeDependencies: base) }
  }

  /// Enqueues a processed action with what its reducer read, and a checkpoint when one is due.
  func finish(
    _ opened: RecorderBookkeeping.Opened, action: Action, state: State, effects: EffectShape
  ) {
    let time = self.elapsed()
    // NB: A state holds its shared values by reference: encoded later, on the writer's
    // thread, it must encode them as they are now.
    let moment =
      _SharedHolders.anyExist && self.sharedValues.holdsShared
      ? self.sharedValues.moments.mark() : nil
    let (captured, isCheckpoint) = self.books.lock.withLock {
      self.lastState.set(state)
      return self.books.finish(seq: opened.seq, checkpointInterval: self.checkpointInterval)
    }
    let encoded = self.encoding.state(state)
    let encodedAction = self.encoding.action(action)
    let recorded: any Encodable & Sendable =
      moment.map { ValueAtMoment(value: encoded, moment: $0) } ?? encoded
    self.append(
      .action(
        seq: opened.seq, time: time, origin: opened.origin,
        value: opened.moment.map { ValueAtMoment(value: encodedAction, moment: $0) }
          ?? encodedAction,
        captured: captured,
        // NB: Written out on the writer's thread: the shape holds its identifiers unwritten.
        effects: effects == .none ? nil : JSONValueSource { effects.ledgerJSON },
        // NB: What the action changed is worked out on the writer's thread, from this state.
        state: self.writesStepUpdates ? recorded : nil,
        site: opened.context.site
      )
    )
    if opened.moment != nil,
      let places = self.sharedValues.actionPlaces(of: self.encoding.actionSharedSource(action))
    {
      self.append(.shared(seq: opened.seq, .actionPlaces(places)))
    }
    if isCheckpoint {
      self.append(.checkpoint(seq: opened.seq, state: recorded))
      if moment != nil, let places = self.sharedValues.places(of: self.encoding.sharedSource(state))
      {
        self.append(.shared(seq: opened.seq, .places(places)))
      }
    }
    if moment != nil { self.sharedValues.actionFinished() }
  }
}

/// What the recorders of this process have said of values they could not hold: each kind once.
let _recorderFailuresSaid = RecorderFailuresSaid()

/// The kinds of failure said so far, by what failed and why, whichever action it was.
final class RecorderFailuresSaid: Sendable {
  private let said = LockIsolated<Set<String>>([])

  /// Whether `failure` ("action 3 could not be encoded: …") is of a kind not said before; notes
  /// it as said.
  func isNew(_ failure: String) -> Bool {
    let kind =
      failure.range(of: " could not be encoded: ").map { String(failure[$0.upperBound...]) }
      ?? failure
    return self.said.withValue { $0.insert(kind).inserted }
  }
}

/// A convenience for the recorder of a reducer: `RecorderOf<Todos>(url:feature:initialState:)`.
public typealias RecorderOf<R: Reducer> = Recorder<R.State, R.Action>

/// The name of a type as recordings write it: qualified by module and enclosing types
/// (`ExampleFeatures.Todos.State`), without the build-specific `(unknown context at $…)` that
/// Swift prints for types in private or local scopes.
public func recordedTypeName(_ type: Any.Type) -> String {
  // NB: A value replayed through reflection is its value's type to a recording.
  if let reflected = type as? any _ReflectedWrapper.Type {
    return recordedTypeName(reflected.wrappedType)
  }
  return _stableTypeName(type)
}

extension Duration {
  /// `minutes` minutes, as a bug report's window reads: `bugReport(to: url, last: .minutes(5))`.
  public static func minutes(_ minutes: Int) -> Duration {
    .seconds(60 * minutes)
  }
}

extension Recorder {
  /// The rolling recordings of this feature in `directory` that did not end cleanly: after a
  /// crash, the previous session, from which the app can make a bug report.
  ///
  /// ```swift
  /// for session in try RecorderOf<Todos>.unfinishedSessions(in: recordings) {
  ///   try session.bugReport(to: crashReport, last: .minutes(5), note: "after a crash")
  /// }
  /// ```
  public static func unfinishedSessions(
    in directory: URL, fileSystem: any LogFileSystem = .posix
  ) throws -> [RecordedSession] {
    let stateType = recordedTypeName(State.self)
    return try RecordedSession.unfinished(in: directory, fileSystem: fileSystem).filter {
      session in
      guard let first = session.segments.first, let recording = try? Recording(contentsOf: first)
      else { return false }
      return recording.header.stateType == stateType
    }
  }

  /// Writes one ordinary recording of the last actions, for a bug report, while recording goes
  /// on: what was recorded is flushed first. For a rolling recording it is made from the
  /// segments; for a single file, from the file. See
  /// ``RecordedSession/bugReport(to:last:note:metadata:redacting:fileSystem:)``.
  @discardableResult
  public func bugReport(
    to url: URL, last: Duration? = .seconds(300), note: String? = nil,
    metadata: [String: String] = [:], redacting redactions: Redactions = .none
  ) throws -> ExportSummary {
    try self.flush()
    let recording: Recording
    if let rolling = self.rolling {
      let session = try RecordedSession.all(in: rolling.directory, fileSystem: self.fileSystem)
        .first { $0.name == rolling.session }
      guard let session else {
        throw ActionLogError.unreadable(
          path: rolling.directory.path, reason: "no segment of \(rolling.session) is there")
      }
      recording = try session.joined()
    } else {
      recording = try Recording(contentsOf: self.url)
    }
    return try RecordedSession.bugReport(
      of: recording, to: url, last: last, note: note, metadata: metadata,
      redacting: redactions, fileSystem: self.fileSystem)
  }
}
