@_spi(Internals) import ActionLog
@_spi(Internals) import ComposableArchitecture
import CustomDump

/// Where today's reducer first disagrees with a recording.
public struct Divergence: Sendable, Equatable, CustomStringConvertible {
  /// The first recorded checkpoint whose state the replay does not reproduce.
  public let checkpoint: Int
  /// The last checkpoint (or 0, the initial state) that still agreed.
  public let lastAgreement: Int
  /// The first step after `lastAgreement` where the reducer read its dependencies differently
  /// from the recording, when there is one: the likeliest step where behaviour changed.
  public let firstSuspect: Int?
  /// The step reported: the first suspect, or else the checkpoint.
  public var step: Int { self.firstSuspect ?? self.checkpoint }
  /// The action at ``step``, dumped.
  public let action: String
  /// The time of ``step`` in the recording.
  public let time: Duration
  /// Issues the reducer reported while replaying ``step``.
  public let issues: [String]
  /// The difference between the recorded and the replayed state at ``checkpoint``; `nil` when
  /// only the effects differ.
  public let diff: String?
  /// The first step whose effects differ from the recorded ones, with both sides, when they do
  /// before or at ``checkpoint``.
  public let effects: EffectMismatch?
  /// Whether every step's state was compared (the recording has step updates), so that
  /// ``checkpoint`` is the very step whose change differs, not the next checkpoint.
  public var comparedEveryStep = false

  public var description: String {
    if let effects = self.effects { return self.describeEffects(effects) }
    let opening =
      self.comparedEveryStep
      ? """
      The replay differs from the recording at step \(self.checkpoint): the state after it is \
      not the one recorded, and the step before it still agreed.
      """
      : self.lastAgreement + 1 == self.checkpoint
        ? """
        The replay differs from the recording at step \(self.checkpoint), which has a checkpoint \
        of its own: the step before it still agreed.
        """
        : """
        The replay differs from the recording at checkpoint \(self.checkpoint) \
        (steps \(self.lastAgreement + 1)–\(self.checkpoint) since the last state that agreed). \
        \(self.narrowed)
        """
    let reported =
      self.issues.isEmpty
      ? ""
      : "\n  The reducer reported:\n"
        + self.issues.map { "• \($0)" }.joined(separator: "\n").indent(by: 4) + "\n"
    return """
      \(opening)

        Action at step \(self.step) (+\(self.time.secondsText)):
      \(self.action.indent(by: 4))
      \(reported)
      \((self.diff ?? "").indent(by: 2))

      (Recorded: −, Replayed: +)
      """
  }

  /// When the effects differ: the step, its action, both sides, and the state diff beside
  /// them when the state differs too.
  private func describeEffects(_ effects: EffectMismatch) -> String {
    let state =
      self.diff.map {
        """

          The state differs too, at \(self.comparedEveryStep ? "step" : "checkpoint") \(self.checkpoint):
        \($0.indent(by: 2))

        """
      }
        ?? """

          The states still agree\(self.checkpoint > 0 ? " at \(self.comparedEveryStep ? "step" : "checkpoint") \(self.checkpoint)" : ""): \
        only what the reducer starts changed.

        """
    return """
      The replay's effects differ from the recording at step \(effects.step): today's reducer \
      returns other effects for the same action.

        Action at step \(effects.step) (+\(self.time.secondsText)):
      \(self.action.indent(by: 4))

        Effects:
      \(effects.description.indent(by: 4))
      \(state)
      (Recorded: −, Replayed: +)
      """
  }

  private var narrowed: String {
    self.firstSuspect.map {
      """
      Step \($0) is the first to replay differently from the recording (it read its \
      dependencies differently, or reported an issue).
      """
    }
      ?? """
      The recording keeps full states only at checkpoints: the change happened in steps \
      \(self.lastAgreement + 1) to \(self.checkpoint).
      """
  }
}

extension Timeline {
  /// Re-runs the whole recording with today's reducer and reports the first step it does not
  /// reproduce, or `nil` when it reproduces them all.
  ///
  /// A recording with step updates (``ActionLog/LogHeader/hasStepUpdates``) is compared at
  /// every step: the first step whose state differs is reported, with that step's states. One
  /// without, or with `everyStep` false, is compared at its checkpoints.
  ///
  /// - Parameters:
  ///   - finalStateOnly: Compare only the last checkpoint (the state at close), not each one.
  ///   - everyStep: Compare every step's state when the recording has them; `false` compares
  ///     checkpoints only, which is faster.
  ///   - normalize: Applied to the recorded and the replayed state before they are compared:
  ///     clear what may differ without being wrong, such as timestamps.
  ///   - effects: Whether to compare the effects the reducer returns with the recorded ones
  ///     (when the recording has an effect ledger): the first step whose effects differ is a
  ///     divergence, with the state diff beside it when the next checkpoint differs too.
  ///   - isCancelled: Checked now and then; returning `true` stops early with `nil`.
  public func verify(
    finalStateOnly: Bool = false,
    everyStep: Bool = true,
    normalizing normalize: (inout R.State) -> Void = { _ in },
    effects: EffectComparison = .compare,
    willReplay: (_ step: Int) -> Void = { _ in },
    isCancelled: () -> Bool = { false }
  ) throws -> Divergence? {
    // NB: Every step with the replaying dependencies installed once.
    try self.replayer.batch {
      try self.verifySteps(
        finalStateOnly: finalStateOnly, everyStep: everyStep, normalizing: normalize,
        effects: effects, willReplay: willReplay, isCancelled: isCancelled)
    }
  }

  private func verifySteps(
    finalStateOnly: Bool,
    everyStep: Bool,
    normalizing normalize: (inout R.State) -> Void,
    effects: EffectComparison,
    willReplay: (_ step: Int) -> Void,
    isCancelled: () -> Bool
  ) throws -> Divergence? {
    if everyStep, !finalStateOnly, self.recording.header.hasStepUpdates,
      R.State.self is any Encodable.Type
    {
      return try self.verifyEveryStep(
        normalizing: normalize, effects: effects, willReplay: willReplay,
        isCancelled: isCancelled)
    }
    var state = try self.replayer.initialState()
    var lastAgreement = 0
    var firstSuspect: Int?
    var suspectIssues: [String] = []
    var checkpoints =
      finalStateOnly ? self.recording.checkpoints.suffix(1) : self.recording.checkpoints[...]
    let comparesEffects = effects == .compare && self.recording.header.hasEffectLedger
    var mismatch: EffectMismatch?
    var actions = self.replayer.actions(from: 1, through: self.count)
    for step in stride(from: 1, through: self.count, by: 1) {
      if step % 1_024 == 0, isCancelled() { return nil }
      willReplay(step)
      guard let action = try actions.next() else { break }
      let replayed = self.replayer.apply(action, to: &state)
      if firstSuspect == nil, !replayed.isFaithful {
        firstSuspect = step
        suspectIssues = replayed.issues
      }
      if comparesEffects, mismatch == nil {
        mismatch = try Self.effectMismatch(replayed, at: step)
      }
      // The effects differ and no checkpoint follows: say so with the states that agreed.
      if let mismatch, step == self.count, checkpoints.first != step {
        return try self.divergence(at: mismatch, checkpoint: lastAgreement, diff: nil)
      }
      guard checkpoints.first == step else { continue }
      checkpoints.removeFirst()
      var recorded = try self.recording.checkpoint(after: step, as: R.State.self)
      var replayedState = state
      normalize(&recorded)
      normalize(&replayedState)
      let agrees =
        recorded == replayedState || self.agreeOutsideRedactions(recorded, replayedState)
      if let mismatch {
        let diff =
          agrees
          ? nil
          : prunedDiff(recorded, replayedState) ?? "(the states differ, but dump the same)"
        return try self.divergence(at: mismatch, checkpoint: step, diff: diff)
      }
      if agrees {
        lastAgreement = step
        firstSuspect = nil
        suspectIssues = []
        continue
      }
      let reported = firstSuspect ?? step
      return Divergence(
        checkpoint: step,
        lastAgreement: lastAgreement,
        firstSuspect: firstSuspect,
        action: String(
          customDumping: try self.recording.action(reported, as: R.Action.self).action),
        time: self.recording.time(ofAction: reported),
        issues: suspectIssues,
        diff: prunedDiff(recorded, replayedState) ?? "(the states differ, but dump the same)",
        effects: nil
      )
    }
    return nil
  }

  /// A divergence whose effects differ at `mismatch.step`; `diff` when the state at
  /// `checkpoint`, the first after it, differs too.
  private func divergence(
    at mismatch: EffectMismatch, checkpoint: Int, diff: String?
  ) throws -> Divergence {
    Divergence(
      checkpoint: checkpoint,
      lastAgreement: checkpoint,
      firstSuspect: mismatch.step,
      action: String(
        customDumping: try self.recording.action(mismatch.step, as: R.Action.self).action),
      time: self.recording.time(ofAction: mismatch.step),
      issues: [],
      diff: diff,
      effects: mismatch
    )
  }
}

extension Timeline {
  /// The recorded and replayed effects of a step, when they do not behave alike.
  static func effectMismatch(_ replayed: ReplayedStep, at step: Int) throws -> EffectMismatch? {
    let recorded: EffectShape
    do {
      recorded = try EffectShape(ledgerJSON: replayed.recordedEffects)
    } catch var error as EffectLedgerError {
      error.step = step
      throw error
    }
    guard !recorded.behavesLike(replayed.effects) else { return nil }
    return EffectMismatch(step: step, recorded: recorded, replayed: replayed.effects)
  }

  /// Whether two states differ only at paths the recording redacted, where a replay cannot
  /// reproduce the placeholders.
  func agreeOutsideRedactions(_ recorded: R.State, _ replayed: R.State) -> Bool {
    let redactions = self.recording.header.redactions
    guard !redactions.state.isEmpty,
      let recorded = recorded as? any Encodable, let replayed = replayed as? any Encodable
    else { return false }
    let codec = FoundationJSONCodec()
    guard let recordedJSON = try? codec.encode(recorded),
      let replayedJSON = try? codec.encode(replayed)
    else { return false }
    return redactions.statesAgree(recordedJSON, replayedJSON) ?? false
  }
}
