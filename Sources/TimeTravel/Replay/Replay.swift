import ActionLog
import ComposableArchitecture

/// Re-runs a reducer over recorded actions with the dependency values recorded for each,
/// dropping the effects it returns (their actions are in the recording already).
public struct Replayer<R: Reducer> where R.State: Decodable, R.Action: Decodable {
  /// The recording replayed.
  public let recording: Recording
  /// The reducer that re-runs the actions.
  public let reducer: R
  /// The dependencies answered from the recording.
  public let dependencies: [RecordableDependency]

  /// Prepares to replay `recording` with `reducer`.
  public init(
    recording: Recording,
    reducer: R,
    dependencies: [RecordableDependency] = RecordableDependency.standard
  ) {
    self.recording = recording
    self.reducer = reducer
    self.dependencies = dependencies
  }

  /// The state the recording starts from.
  public func initialState() throws -> R.State {
    try self.recording.initialState(as: R.State.self)
  }

  /// Applies recorded action `seq` to `state`.
  ///
  /// - Returns: How the dependency reads went: reads beyond what was recorded, and recorded
  ///   values left unread, each a sign that the reducer no longer does what it did.
  @discardableResult
  public func apply(_ seq: Int, to state: inout R.State) throws -> DependencyPlayback {
    let recorded = try self.recording.action(seq, as: R.Action.self)
    let playback = DependencyPlayback(recorded.captured)
    let context = ActionContext(
      id: UInt64(seq),
      origin: recorded.origin == .send ? .send : .effect(parent: UInt64(seq))
    )
    _ = ActionContext.$current.withValue(context) {
      withDependencies {
        playback.install(self.dependencies, into: &$0)
      } operation: {
        self.reducer.reduce(into: &state, action: recorded.action)
      }
    }
    return playback
  }

  /// The state after action `seq`, computed from the nearest checkpoint at or before it.
  public func state(after seq: Int) throws -> R.State {
    let start = self.recording.checkpoint(atOrBefore: seq)
    var state =
      start == 0
      ? try self.initialState()
      : try self.recording.checkpoint(after: start, as: R.State.self)
    for next in stride(from: start + 1, through: seq, by: 1) {
      try self.apply(next, to: &state)
    }
    return state
  }
}
