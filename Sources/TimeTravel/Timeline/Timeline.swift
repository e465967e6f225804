import ActionLog
import ComposableArchitecture
import CustomDump

/// Stands at any step of a recording: re-runs the reducer from the nearest checkpoint with the
/// recorded dependency values, and shows what each action changed.
///
/// Step 0 is the initial state; step *n* is the state after action *n*.
///
/// ```swift
/// let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
/// try timeline.goto(120)
/// print(timeline.state.todos.count)
/// print(try timeline.diff(from: 119, to: 120) ?? "(No state changes)")
/// ```
///
/// Seeking costs at most one checkpoint interval of reducer runs: it starts from the nearest
/// recorded checkpoint or from a state computed earlier. Computed states are cached with bounded
/// memory: densely near the current position, sparsely further away.
public final class Timeline<R: Reducer> where R.State: Decodable & Equatable, R.Action: Decodable {
  /// The recording.
  public let recording: Recording
  /// Re-runs the reducer over recorded actions.
  public let replayer: Replayer<R>
  /// The current step: 0 for the initial state, *n* for the state after action *n*.
  public private(set) var position = 0
  /// The state at the current step.
  public private(set) var state: R.State
  /// The replay's shared values that ``state`` holds.
  var stateScope: _SharedReplayScope?

  /// The scratch branch that ``send(_:)`` started at the current step, if any.
  public internal(set) var diversion: Diversion?

  private var cache: StateCache<Snapshot>
  /// Where the last reverse search stopped, so the next one starts before it.
  var lastSearchStop: Int?
  /// What breakpoints matched, by the bytes of the actions they were tried on.
  var breakpointAnswers = BreakpointAnswers()

  /// Opens a recording with the reducer of its feature.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - reducer: The feature's reducer, without its recording modifier.
  ///   - feature: The feature's identifier; the recording must be of this feature.
  ///   - dependencies: The dependencies the recording captured.
  ///   - schema: The feature's version and migrations: a recording of an older version is read
  ///     through them. By default, what the state type declares (``ActionLog/SchemaVersioned``).
  /// - Throws: ``TimelineError`` when the recording is of another feature or other types, an
  ///   ``ActionLog/MigrationError`` when it is newer than `schema` or a migration is missing, or
  ///   an ``ActionLog/ActionLogError`` when its initial state cannot be decoded.
  public init(
    recording: Recording,
    reducer: R,
    feature: String,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    schema: FeatureSchema? = nil
  ) throws {
    guard recording.header.feature == feature else {
      throw TimelineError.otherFeature(expected: feature, found: recording.header.feature)
    }
    let expected = "\(recordedTypeName(R.State.self)), \(recordedTypeName(R.Action.self))"
    let found = "\(recording.header.stateType), \(recording.header.actionType)"
    guard expected == found else {
      throw TimelineError.otherTypes(expected: expected, found: found)
    }
    let recording = try recording.migrated(to: schema ?? .of(R.State.self))
    self.recording = recording
    self.replayer = Replayer(recording: recording, reducer: reducer, dependencies: dependencies)
    self.state = try self.replayer.initialState()
    self.cache = StateCache()
    self.stateScope = self.replayer.shared.scope
    self.cache.insert(self.keep(self.state), at: 0)
  }

  /// A timeline over what `replayer` replays, already read through its migrations.
  init(replayer: Replayer<R>) throws {
    self.recording = replayer.recording
    self.replayer = replayer
    self.state = try replayer.initialState()
    self.cache = StateCache()
    self.stateScope = self.replayer.shared.scope
    self.cache.insert(self.keep(self.state), at: 0)
  }

  /// The number of actions, so the last step.
  public var count: Int {
    self.recording.count
  }

  /// Moves to step `step`.
  ///
  /// - Complexity: At most one checkpoint interval of reducer runs.
  public func goto(_ step: Int) throws {
    if let diversion = self.diversion {
      throw TimelineError.diverted(step: diversion.step, sent: diversion.actions.count)
    }
    self.state = try self.state(at: step)
    self.stateScope = self.replayer.shared.scope
    if step != self.position { self.lastSearchStop = nil }
    self.position = step
    self.cache.thin(around: step)
  }

  /// Moves `count` steps forward.
  public func step(_ count: Int = 1) throws {
    try self.goto(self.position + count)
  }

  /// Moves `count` steps back.
  public func back(_ count: Int = 1) throws {
    try self.goto(self.position - count)
  }

  /// The state at `step`, without moving.
  ///
  /// The state is a value of its own: the shared values it holds are copies that replaying
  /// further (which goes on from this state) changes, and no other state sees.
  public func state(at step: Int) throws -> R.State {
    guard step >= 0, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    if let cached = self.cache[step] { return try self.resume(cached, at: step) }
    // Start from the latest of: a recorded checkpoint, a cached state, the current position.
    var start = self.recording.checkpoint(atOrBefore: step)
    var origin: Snapshot? = nil
    if let cached = self.cache.nearest(atOrBefore: step), cached >= start {
      start = cached
      origin = self.cache[cached]
    }
    if self.position <= step, self.position > start {
      start = self.position
      origin = Snapshot(state: self.state, scope: self.stateScope)
    }
    // NB: The actions first: a long run's are decoded ahead while the state it starts from is.
    var actions = self.replayer.actions(from: start + 1, through: step)
    var current =
      try origin.map { try self.resume($0, at: start) }
      ?? (start == 0
        ? try self.replayer.initialState()
        : try self.replayer.checkpoint(after: start))
    try self.replayer.batch {
      while let action = try actions.next() {
        self.replayer.apply(action, to: &current)
        // NB: Only a state the cache keeps around the step sought: one kept would make the
        // next step copy what it changes (the cache shares the state's storage).
        if self.cache.keeps(action.seq, around: step) {
          self.cache.insert(self.keep(current), at: action.seq)
        }
      }
    }
    return current
  }

  /// A state the timeline keeps, with copies of its shared values when the recording has any.
  struct Snapshot {
    var state: R.State
    var scope: _SharedReplayScope?
  }

  /// `state` as the timeline keeps it: when the recording's states share values, with copies
  /// of them that replaying on leaves as they are.
  private func keep(_ state: R.State) -> Snapshot {
    guard self.recording.hasSharedRecords,
      let kept = try? self.replayer.shared.scope.snapshot(state)
    else { return Snapshot(state: state, scope: nil) }
    return Snapshot(state: kept.0, scope: kept.1)
  }

  /// A copy of a kept state, from which the replayer goes on at `step`.
  private func resume(_ snapshot: Snapshot, at step: Int) throws -> R.State {
    guard let scope = snapshot.scope else {
      self.replayer.shared.resume(scope: _SharedReplayScope(), at: step)
      return snapshot.state
    }
    let (state, copy) = try scope.snapshot(snapshot.state)
    self.replayer.shared.resume(scope: copy, at: step)
    return state
  }

  /// A copy of `state`, the state replayed last, at `step`, from which the replayer goes on:
  /// `state` keeps its shared values as they are.
  func branch(_ state: R.State, at step: Int) -> R.State {
    guard self.recording.hasSharedRecords,
      let (copy, scope) = try? self.replayer.shared.scope.snapshot(state)
    else { return state }
    self.replayer.shared.resume(scope: scope, at: step)
    return copy
  }

  /// The decoded action that led to `step`.
  public func action(at step: Int) throws -> RecordedAction<R.Action> {
    guard step >= 1, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    return try self.recording.action(step, as: R.Action.self)
  }

  /// What changed in state from step `from` to step `to`, as a customDump diff, or `nil` when
  /// nothing did.
  public func diff(from: Int, to: Int) throws -> String? {
    let before = try self.state(at: from)
    let after = try self.state(at: to)
    guard before != after else { return nil }
    return prunedDiff(before, after)
  }

  /// The number of states held in memory.
  public var cachedStates: Int {
    self.cache.count
  }
}
