import ActionLog
import ComposableArchitecture
import Foundation

/// What ``Timeline/rerecord(to:willReplay:isCancelled:)`` wrote.
public struct RerecordSummary: Sendable, Equatable {
  /// The checkpoints whose state today's reducer computes differently, by the action they
  /// follow: the behaviour changes a reviewer approves.
  public var changedCheckpoints: [Int]
  /// The actions whose reducer returns effects that behave otherwise than recorded (none for a
  /// recording without an effect ledger, which gets one). Work that only moved in the source is
  /// written at its new site, and is not counted here.
  public var changedEffects: [Int]
  /// How many checkpoints the recording has.
  public var checkpoints: Int
  /// The new file.
  public var written: ExportSummary
}

extension Timeline {
  /// Records the recording again with today's reducer, the snapshot tests' "record mode": the
  /// recorded actions and dependency values re-run, and the new file holds them byte for byte
  /// with the states today's reducer computes at the same checkpoints, what it returns for
  /// each action (the effect ledger), and what each action changes (the step updates).
  ///
  /// - Returns: `nil` when `isCancelled` said to stop.
  /// - Throws: ``TimelineError/rerecordNeedsCurrentVersion(recorded:)`` for a recording read
  ///   through migrations (migrate it first: its actions would change), and what writing throws.
  public func rerecord(
    to url: URL,
    willReplay: (_ step: Int) -> Void = { _ in },
    isCancelled: () -> Bool = { false }
  ) throws -> RerecordSummary? {
    guard self.recording.appliedMigrationSteps.isEmpty else {
      throw TimelineError.rerecordNeedsCurrentVersion(
        recorded: self.recording.header.schemaVersion)
    }
    var state = try self.replayer.initialState()
    var states: [Int: [UInt8]] = [:]
    var changed: [Int] = []
    var ledger: [Int: JSONValue?] = [:]
    var changedEffects: [Int] = []
    let hadLedger = self.recording.header.hasEffectLedger
    let checkpoints = Set(self.recording.checkpoints)
    for step in stride(from: 1, through: self.count, by: 1) {
      if step % 1_024 == 0, isCancelled() { return nil }
      willReplay(step)
      let replayed = try self.replayer.apply(step, to: &state)
      if !hadLedger {
        if replayed.effects != .none { ledger[step] = replayed.effects.ledgerJSON }
      } else {
        let recorded = try EffectShape(ledgerJSON: replayed.recordedEffects)
        // NB: Work that only moved (its sites) is written where it is now, but is no change.
        if recorded != replayed.effects { ledger[step] = .some(replayed.effects.ledgerJSON) }
        if !recorded.behavesLike(replayed.effects) { changedEffects.append(step) }
      }
      guard checkpoints.contains(step) else { continue }
      let recorded = try self.recording.checkpoint(after: step, as: R.State.self)
      if recorded != state, !self.agreeOutsideRedactions(recorded, state) {
        changed.append(step)
      }
      guard let encodable = state as? any Encodable else {
        throw TimelineError.stateNotEncodable(type: recordedTypeName(R.State.self))
      }
      states[step] = try CompactJSONCodec().encode(encodable)
    }
    guard R.State.self is any Encodable.Type else {
      throw TimelineError.stateNotEncodable(type: recordedTypeName(R.State.self))
    }
    // What each action changes, from a second replay that gives the export each step's state
    // as it writes that step.
    var stepState = try self.replayer.initialState()
    var stepped = 0
    let written = try self.recording.export(
      to: url, options: ExportOptions(checkpointStates: states, effectLedger: ledger)
    ) { seq in
      while stepped < seq {
        stepped += 1
        _ = try self.replayer.apply(stepped, to: &stepState)
      }
      let encodable = stepState as! any Encodable
      return try CompactJSONCodec().encode(encodable)
    }
    return RerecordSummary(
      changedCheckpoints: changed, changedEffects: changedEffects,
      checkpoints: checkpoints.count, written: written)
  }
}
