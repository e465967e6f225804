import ActionLog
@_spi(Internals) import ComposableArchitecture
import ConcurrencyExtras
import IssueReporting

/// Re-runs a reducer over recorded actions with the dependency values recorded for each,
/// dropping the effects it returns (their actions are in the recording already).
public struct Replayer<R: Reducer> where R.State: Decodable, R.Action: Decodable {
  /// The recording replayed.
  public let recording: Recording
  /// The reducer that re-runs the actions.
  public let reducer: R
  /// The dependencies answered from the recording.
  public let dependencies: [RecordableDependency]
  /// The shared values of the state being replayed, and the recording's changes to them.
  let shared: SharedReplay
  /// Who this replayer is, to the batches it runs (``batch(_:)``).
  private let identity = Identity()
  private final class Identity: Sendable {}

  /// Prepares to replay `recording` with `reducer`.
  public init(
    recording: Recording,
    reducer: R,
    dependencies: [RecordableDependency] = RecordableDependency.standard
  ) {
    self.recording = recording
    self.reducer = reducer
    self.dependencies = dependencies
    self.shared = SharedReplay(recording: recording)
  }

  /// The state the recording starts from.
  ///
  /// Replaying goes on from the state this returns: its shared values are the replay's own
  /// (no file or user default is touched), shared where the recording says they were.
  public func initialState() throws -> R.State {
    try self.shared.decode(at: 0) { try self.recording.initialState(as: R.State.self) }
  }

  /// The state recorded at the checkpoint after action `seq`, from which replaying goes on.
  public func checkpoint(after seq: Int) throws -> R.State {
    try self.shared.decode(at: seq) {
      try self.recording.checkpoint(after: seq, as: R.State.self)
    }
  }

  /// Applies recorded action `seq` to `state`.
  ///
  /// Issues the reducer reports while replaying (an action for a missing element, say) are
  /// collected in the result rather than reported: a replay that has drifted from the recording
  /// causes them, and they are evidence of where it drifted.
  ///
  /// - Returns: How faithful the step was: dependency reads beyond what was recorded, recorded
  ///   values left unread, and issues reported, each a sign that the reducer no longer does what
  ///   it did.
  @discardableResult
  public func apply(_ seq: Int, to state: inout R.State) throws -> ReplayedStep {
    self.apply(try self.action(seq), to: &state)
  }

  /// Recorded action `seq`, decoded for applying to the state being replayed: the shared values
  /// it carries are that state's, as they were in the app.
  public func action(_ seq: Int) throws -> RecordedAction<R.Action> {
    try self.shared.decodeAction(seq) { try self.recording.action(seq, as: R.Action.self) }
  }

  /// Recorded actions `first` through `last`, decoded for applying in order, as ``action(_:)``
  /// decodes each: a long run is decoded ahead on another thread while the reducer runs.
  func actions(from first: Int, through last: Int) -> RecordedActions<R.Action> {
    // NB: Without shared values to join, an action is its record alone, which any thread reads.
    guard self.shared.decodesActionsAlone else {
      return RecordedActions(
        from: first, through: last, decodesAhead: false, reporters: [],
        decode: { [self] in try self.action($0) }, decodeRun: { _ in [] })
    }
    let recording = self.recording
    return RecordedActions(
      from: first, through: last, decodesAhead: true,
      reporters: PlaybackBatch.current?.issues.outside ?? IssueReporters.current,
      decode: recording.actionReader(as: R.Action.self),
      decodeRun: { recording.actions($0, as: R.Action.self) })
  }

  /// Applies a recorded action decoded earlier to `state`, as ``apply(_:to:)`` does: for
  /// replaying the same actions many times.
  @discardableResult
  public func apply(_ recorded: RecordedAction<R.Action>, to state: inout R.State) -> ReplayedStep {
    var replayed = self.run(
      recorded.action,
      seq: recorded.seq,
      origin: {
        switch recorded.origin {
        case .send: .send
        // NB: The recording checked that the parent is an earlier action, so from 1.
        case let .effect(parent): .effect(parent: UInt64(clamping: parent))
        }
      }(),
      captured: recorded.captured,
      recordedEffects: recorded.recordedEffects,
      on: &state
    )
    replayed.recordedUpdate = recorded.recordedUpdate
    return replayed
  }

  /// Applies an action that is not in the recording to `state`, as if sent to the store.
  ///
  /// Nothing was recorded for it, so its dependencies answer with stand-ins: seeded random UUIDs,
  /// the date 2001-01-01, a seeded random number generator.
  /// The result's ``ReplayedStep/overruns`` says which it read.
  @discardableResult
  public func apply(unrecorded action: R.Action, to state: inout R.State) -> ReplayedStep {
    self.run(
      action, seq: 0, origin: .send, captured: CapturedValues(), recordedEffects: nil, on: &state)
  }

  /// Runs `body`, whose steps replay with their dependencies installed once for all of them
  /// rather than for each: each step's recorded values are swapped in as it runs. What the
  /// steps do is the same; a loop over many steps pays less for each.
  public func batch<T>(_ body: () throws -> T) rethrows -> T {
    if PlaybackBatch.current?.owner === self.identity { return try body() }
    let batch = PlaybackBatch(owner: self.identity, outside: IssueReporters.current)
    return try withDependencies {
      for dependency in self.dependencies {
        let name = dependency.name
        dependency.replay(&$0) { [batch] in batch.playback?.next(name) }
      }
    } operation: {
      try withIssueReporters([batch.issues]) {
        try PlaybackBatch.$current.withValue(batch) { try body() }
      }
    }
  }

  private func run(
    _ action: R.Action,
    seq: Int,
    origin: ActionOrigin,
    captured: CapturedValues,
    recordedEffects: JSONValue?,
    on state: inout R.State
  ) -> ReplayedStep {
    // NB: In a batch, the step reuses the batch's playback and issue reporter: what a step
    // costs beyond its reducer is paid once per batch where it can be.
    if let batch = PlaybackBatch.current, batch.owner === self.identity {
      return self.run(
        action, seq: seq, origin: origin, captured: captured, recordedEffects: recordedEffects,
        on: &state, in: batch)
    }
    let playback = DependencyPlayback(captured)
    let issues = IssueCollector()
    let (effects, problems) = self.step(seq: seq, origin: origin, on: &state) { state in
      withIssueReporters([issues]) {
        withDependencies {
          playback.install(self.dependencies, into: &$0)
        } operation: {
          self.reducer.reduce(into: &state, action: action)
        }
      }
    }
    let tally = playback.tally
    return ReplayedStep(
      seq: seq, overruns: tally.overruns, unread: tally.unread,
      issues: problems + issues.issues.map(\.replayDescription),
      effects: effects.shape,
      recordedEffects: recordedEffects
    )
  }

  /// A step in a batch: its dependencies read the batch's playback, reset to the step's values,
  /// and its issues go to the batch's reporter, which collects them while the step runs.
  private func run(
    _ action: R.Action,
    seq: Int,
    origin: ActionOrigin,
    captured: CapturedValues,
    recordedEffects: JSONValue?,
    on state: inout R.State,
    in batch: PlaybackBatch
  ) -> ReplayedStep {
    let playback = batch.reusedPlayback
    playback.reset(captured)
    batch.playback = playback
    batch.issues.begin()
    let (effects, problems) = self.step(seq: seq, origin: origin, on: &state) { state in
      self.reducer.reduce(into: &state, action: action)
    }
    let issues = batch.issues.end()
    batch.playback = nil
    let tally = playback.tally
    return ReplayedStep(
      seq: seq, overruns: tally.overruns, unread: tally.unread,
      issues: issues.isEmpty ? problems : problems + issues,
      effects: effects.shape,
      recordedEffects: recordedEffects
    )
  }

  /// Runs `reduce` as step `seq`: after the recorded writes of the rest of the app before it,
  /// with the recorded changes of the shared values, in the action's context.
  private func step(
    seq: Int,
    origin: ActionOrigin,
    on state: inout R.State,
    _ reduce: (inout R.State) -> Effect<R.Action>
  ) -> (Effect<R.Action>, [String]) {
    let context = ActionContext(id: UInt64(seq), origin: origin)
    var problems: [String] = []
    guard seq > 0 else {
      let effects = self.shared.runUnrecorded {
        ActionContext.$current.withValue(context) { reduce(&state) }
      }
      return (effects, problems)
    }
    do {
      try self.shared.applyWrites(before: seq, to: &state)
    } catch {
      problems.append("A recorded write of the rest of the app could not be applied: \(error)")
    }
    let effects: Effect<R.Action>
    do {
      effects = try self.shared.run(before: seq) {
        ActionContext.$current.withValue(context) { reduce(&state) }
      }
    } catch {
      problems.append("A recorded change of a shared value could not be applied: \(error)")
      effects = self.shared.runUnrecorded {
        ActionContext.$current.withValue(context) { reduce(&state) }
      }
    }
    return (effects, problems)
  }

  /// The state after action `seq`, computed from the nearest checkpoint at or before it.
  public func state(after seq: Int) throws -> R.State {
    let start = self.recording.checkpoint(atOrBefore: seq)
    var state =
      start == 0
      ? try self.initialState()
      : try self.checkpoint(after: start)
    try self.replay(from: start + 1, through: seq, on: &state)
    return state
  }

  /// Applies recorded actions `first` through `last` to `state` in order, in one batch, and
  /// hands each step's result to `each` (none when `last` is before `first`).
  ///
  /// A long run's actions are decoded ahead on another thread while the reducer runs: on a
  /// machine with a core to spare, replaying costs about what the reducer does.
  public func replay(
    from first: Int,
    through last: Int,
    on state: inout R.State,
    each: (ReplayedStep) throws -> Void = { _ in }
  ) throws {
    try self.batch {
      var actions = self.actions(from: first, through: last)
      while let action = try actions.next() {
        try each(self.apply(action, to: &state))
      }
    }
  }
}

/// How faithfully one recorded action replayed.
public struct ReplayedStep: Sendable, Equatable {
  /// The action's sequence number.
  public let seq: Int
  /// Reads of each dependency beyond the values recorded for this action.
  public let overruns: [String: Int]
  /// Recorded values of each dependency the reducer did not read.
  public let unread: [String: Int]
  /// Issues the reducer reported while replaying the action.
  public let issues: [String]
  /// What the reducer returned: the effects it would have started, which a replay drops.
  public let effects: EffectShape
  /// What the recording says it returned, as written; `nil` for none, or no ledger.
  public let recordedEffects: JSONValue?
  /// What the recording says the action changed in the state; `nil` without step updates.
  public internal(set) var recordedUpdate: [JSONPatchOperation]? = nil

  /// Whether the step read exactly what was recorded and reported nothing.
  public var isFaithful: Bool {
    self.overruns.isEmpty && self.unread.isEmpty && self.issues.isEmpty
  }
}
