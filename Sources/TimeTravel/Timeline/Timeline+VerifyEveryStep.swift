@_spi(Internals) import ActionLog
@_spi(Internals) import ComposableArchitecture
import CustomDump
import StepChanges

extension Timeline {
  /// ``verify(finalStateOnly:everyStep:normalizing:effects:willReplay:isCancelled:)`` at every
  /// step, against the states the recording's updates rebuild.
  func verifyEveryStep(
    normalizing normalize: (inout R.State) -> Void,
    effects: EffectComparison,
    willReplay: (_ step: Int) -> Void,
    isCancelled: () -> Bool
  ) throws -> Divergence? {
    var state = try self.replayer.initialState()
    var recordedStates = RecordedStates(self.recording)
    _ = try recordedStates.state(after: 0)
    let comparesEffects = effects == .compare && self.recording.header.hasEffectLedger
    let redactions = self.recording.header.redactions
    let codec = CompactJSONCodec()
    // NB: Where the states' types have generated code, a step whose change (worked out from the
    // states) is the recorded update agrees, the step before having agreed: only what changed
    // is looked at. The states themselves are compared where it is not.
    let comparesChanges =
      R.State.self is any _StepChanging.Type && redactions.state.isEmpty
      && self.recording.appliedMigrationSteps.isEmpty
    func compare(
      _ step: Int, _ state: R.State, _ replayed: ReplayedStep, _ mismatch: EffectMismatch?
    ) throws -> Divergence? {
      try self.compareWhole(
        step, state, replayed, mismatch, recordedStates: &recordedStates, codec: codec,
        normalizing: normalize)
    }
    // NB: A recorded checkpoint is compared whole: what it holds was true whatever the steps
    // before it say (a child's recording pins what its parent wrote so).
    var checkpoints = self.recording.checkpoints[...]
    var actions = self.replayer.actions(from: 1, through: self.count)
    for step in stride(from: 1, through: self.count, by: 1) {
      if step % 1_024 == 0, isCancelled() { return nil }
      willReplay(step)
      while let next = checkpoints.first, next < step { checkpoints.removeFirst() }
      let before = comparesChanges && checkpoints.first != step ? state : nil
      guard let action = try actions.next() else { break }
      let replayed = self.replayer.apply(action, to: &state)
      let mismatch = comparesEffects ? try Self.effectMismatch(replayed, at: step) : nil
      if mismatch == nil, let before,
        JSONPatchOperation.changes(from: before, to: state, codec: codec)
          == (replayed.recordedUpdate ?? [])
      {
        continue
      }
      if let divergence = try compare(step, state, replayed, mismatch) { return divergence }
    }
    return nil
  }

  /// Compares the state after `step` whole with the recorded one; a divergence when they differ,
  /// or when the step's effects do (`mismatch`).
  private func compareWhole(
    _ step: Int,
    _ state: R.State,
    _ replayed: ReplayedStep,
    _ mismatch: EffectMismatch?,
    recordedStates: inout RecordedStates,
    codec: CompactJSONCodec,
    normalizing normalize: (inout R.State) -> Void
  ) throws -> Divergence? {
    let redactions = self.recording.header.redactions
    let recordedJSON =
      try replayed.recordedUpdate.map { try recordedStates.state(after: step, applying: $0) }
      ?? recordedStates.state(after: step)
    let encodable = state as! any Encodable
    let replayedBytes = try codec.encode(encodable)
    // NB: Both sides write keys sorted: equal bytes are equal states, without parsing.
    var agrees = replayedBytes == recordedJSON.bytes
    if !agrees {
      let replayedJSON = try JSONValue.parse(replayedBytes)
      agrees =
        recordedJSON == replayedJSON
        || !redactions.state.isEmpty
          && redactions.statesAgree(recordedJSON.bytes, replayedJSON.bytes) == true
    }
    var diff: String?
    if !agrees {
      var recorded = try self.recording.decodeState(recordedJSON, after: step, as: R.State.self)
      var replayedState = state
      normalize(&recorded)
      normalize(&replayedState)
      agrees = recorded == replayedState || self.agreeOutsideRedactions(recorded, replayedState)
      if !agrees {
        diff = prunedDiff(recorded, replayedState) ?? "(the states differ, but dump the same)"
      }
    }
    guard mismatch != nil || !agrees else { return nil }
    var divergence = Divergence(
      checkpoint: step,
      lastAgreement: step - 1,
      firstSuspect: replayed.isFaithful ? nil : step,
      action: String(customDumping: try self.recording.action(step, as: R.Action.self).action),
      time: self.recording.time(ofAction: step),
      issues: replayed.issues,
      diff: diff,
      effects: mismatch
    )
    divergence.comparedEveryStep = true
    return divergence
  }
}
