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
  /// The difference between the recorded and the replayed state at ``checkpoint``.
  public let diff: String

  public var description: String {
    let opening =
      self.lastAgreement + 1 == self.checkpoint
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
      \(self.diff.indent(by: 2))

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
  /// Re-runs the whole recording with today's reducer and reports the first recorded checkpoint
  /// it does not reproduce, or `nil` when it reproduces them all.
  ///
  /// - Parameters:
  ///   - finalStateOnly: Compare only the last checkpoint (the state at close), not each one.
  ///   - normalize: Applied to the recorded and the replayed state before they are compared:
  ///     clear what may differ without being wrong, such as timestamps.
  ///   - isCancelled: Checked now and then; returning `true` stops early with `nil`.
  public func verify(
    finalStateOnly: Bool = false,
    normalizing normalize: (inout R.State) -> Void = { _ in },
    willReplay: (_ step: Int) -> Void = { _ in },
    isCancelled: () -> Bool = { false }
  ) throws -> Divergence? {
    var state = try self.replayer.initialState()
    var lastAgreement = 0
    var firstSuspect: Int?
    var suspectIssues: [String] = []
    var checkpoints =
      finalStateOnly ? self.recording.checkpoints.suffix(1) : self.recording.checkpoints[...]
    for step in stride(from: 1, through: self.count, by: 1) {
      if step % 1_024 == 0, isCancelled() { return nil }
      willReplay(step)
      let replayed = try self.replayer.apply(step, to: &state)
      if firstSuspect == nil, !replayed.isFaithful {
        firstSuspect = step
        suspectIssues = replayed.issues
      }
      guard checkpoints.first == step else { continue }
      checkpoints.removeFirst()
      var recorded = try self.recording.checkpoint(after: step, as: R.State.self)
      var replayedState = state
      normalize(&recorded)
      normalize(&replayedState)
      if recorded == replayedState || self.agreeOutsideRedactions(recorded, replayedState) {
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
        diff: CustomDump.diff(recorded, replayedState) ?? "(the states differ, but dump the same)"
      )
    }
    return nil
  }
}

extension Timeline {
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
