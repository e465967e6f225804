import ComposableArchitecture
import CustomDump

extension Timeline {
  /// A scratch branch off the recording: actions applied at a step that the recording does not
  /// hold, to try "what if" without changing the recording.
  public struct Diversion {
    /// The step of the recording the branch starts from.
    public let step: Int
    /// The actions applied so far, in order.
    public internal(set) var actions: [R.Action]
    /// The state after them.
    public internal(set) var state: R.State
    /// The replay's shared values that ``state`` holds.
    var scope: _SharedReplayScope? = nil
  }

  /// Applies `action` to the current state on a diversion (starting one at the current step if
  /// there is none), and returns how it ran. The recording and ``state`` are unchanged; the
  /// timeline does not move until ``discardDiversion()``.
  ///
  /// Effects are dropped, and dependencies answer with stand-ins (see
  /// ``Replayer/apply(unrecorded:to:)``).
  @discardableResult
  public func send(_ action: R.Action) -> (before: R.State, step: ReplayedStep) {
    var diversion = self.diversion ?? Diversion(step: self.position, actions: [], state: self.state)
    let before = diversion.state
    self.replayer.shared.resume(
      scope: diversion.scope ?? self.stateScope ?? _SharedReplayScope(), at: diversion.step)
    diversion.state = self.branch(diversion.state, at: diversion.step)
    let step = self.replayer.apply(unrecorded: action, to: &diversion.state)
    diversion.scope = self.replayer.shared.scope
    diversion.actions.append(action)
    self.diversion = diversion
    return (before, step)
  }

  /// Leaves the diversion, if any, and returns to the recording at the step it started from.
  public func discardDiversion() {
    self.diversion = nil
  }
}
