import ActionLog
import Foundation

/// What ``Timeline/rerecord(to:willReplay:isCancelled:)`` wrote.
public struct RerecordSummary: Sendable, Equatable {
  /// The checkpoints whose state today's reducer computes differently, by the action they
  /// follow: the behaviour changes a reviewer approves.
  public var changedCheckpoints: [Int]
  /// How many checkpoints the recording has.
  public var checkpoints: Int
  /// The new file.
  public var written: ExportSummary
}

extension Timeline {
  /// Records the recording again with today's reducer, the snapshot tests' "record mode": the
  /// recorded actions and dependency values re-run, and the new file holds them byte for byte
  /// with the states today's reducer computes at the same checkpoints.
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
    let checkpoints = Set(self.recording.checkpoints)
    for step in stride(from: 1, through: self.count, by: 1) {
      if step % 1_024 == 0, isCancelled() { return nil }
      willReplay(step)
      _ = try self.replayer.apply(step, to: &state)
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
    let written = try self.recording.export(
      to: url, options: ExportOptions(checkpointStates: states))
    return RerecordSummary(
      changedCheckpoints: changed, checkpoints: checkpoints.count, written: written)
  }
}
