import ActionLog

/// Where an exported recording starts: the policy of `replay export --last N --max-size SIZE`.
///
/// The export keeps the actions after a step, starting from the state after it: the recorded
/// checkpoint there, or, when there is none, the state a timeline computes. A recording whose
/// feature cannot be re-run starts at the nearest recorded checkpoint before the step instead,
/// keeping a few more actions, or keeps them all when there is none.
public struct ExportCut: Sendable {
  /// The step the export was asked to start after (the larger of what `--last` and
  /// `--max-size` ask for); 0 keeps every action.
  public let wanted: Int
  /// The cut to make, or `nil` to keep every action.
  public let cut: ExportOptions.Cut?
  /// Why the export starts elsewhere than asked, when it does.
  public let shortfall: Shortfall?

  /// Why an export could not start where it was asked to.
  public enum Shortfall: Equatable, Sendable {
    /// No recorded checkpoint before step `wanted`, and no reducer to compute the state there:
    /// every action is kept.
    case noCheckpoint(wanted: Int)
    /// The export starts after the checkpoint at `checkpoint`, the nearest before `wanted`.
    case nearestCheckpoint(Int, wanted: Int)
  }

  /// Decides where an export of `recording` starts.
  ///
  /// - Parameters:
  ///   - recording: The recording to export.
  ///   - last: Keep at most this many actions; `nil` for no such limit.
  ///   - bytes: Keep as many of the last actions as fit in this many bytes; `nil` for no limit.
  ///   - session: Opens a session over the recording, to compute the state at the cut when no
  ///     checkpoint is recorded there; called only then.
  public init(
    _ recording: Recording,
    keepingLast last: Int?,
    fittingIn bytes: Int?,
    session: () -> any TimelineSession
  ) throws {
    var wanted = 0
    if let last { wanted = max(wanted, recording.count - last) }
    if let bytes { wanted = max(wanted, recording.cutPoint(fittingIn: bytes)) }
    self.wanted = wanted
    guard wanted > 0 else {
      (self.cut, self.shortfall) = (nil, nil)
      return
    }
    if recording.checkpoints.contains(wanted) {
      (self.cut, self.shortfall) = (ExportOptions.Cut(after: wanted), nil)
    } else if let state = try session().encodedState(at: wanted) {
      (self.cut, self.shortfall) = (ExportOptions.Cut(after: wanted, state: state), nil)
    } else {
      let checkpoint = recording.checkpoint(atOrBefore: wanted)
      self.cut = checkpoint == 0 ? nil : ExportOptions.Cut(after: checkpoint)
      self.shortfall =
        checkpoint == 0
        ? .noCheckpoint(wanted: wanted) : .nearestCheckpoint(checkpoint, wanted: wanted)
    }
  }
}
