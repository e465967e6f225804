import ActionLog
import ComposableArchitecture

extension Reducer where State: Encodable & Sendable, Action: Encodable & Sendable {
  /// Records every action this reducer processes, the dependency values it reads while doing so,
  /// and checkpoints of its state, with `recorder`.
  ///
  /// Apply it to the root reducer of the store, so it sees every action:
  ///
  /// ```swift
  /// let store = Store(initialState: Todos.State()) {
  ///   Todos().recording(to: recorder)
  /// }
  /// ```
  ///
  /// - Parameter recorder: The recorder that writes the log.
  /// - Returns: A reducer that behaves as this one and records what it does.
  public func recording(to recorder: Recorder<State, Action>) -> _RecordingReducer<Self> {
    _RecordingReducer(base: self, recorder: recorder)
  }
}

/// The reducer behind ``ComposableArchitecture/Reducer/recording(to:)``.
public struct _RecordingReducer<Base: Reducer>: Reducer
where Base.State: Encodable & Sendable, Base.Action: Encodable & Sendable {
  let base: Base
  let recorder: Recorder<Base.State, Base.Action>

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let context = ActionContext.current
    guard let (seq, origin) = self.recorder.begin(context: context) else {
      return self.base.reduce(into: &state, action: action)
    }
    let (effects, captured): (Effect<Base.Action>, CapturedValues)
    if let context {
      (effects, captured) = self.recorder.capture.capture(actionID: context.id) {
        self.base.reduce(into: &state, action: action)
      }
    } else {
      // NB: Outside a store there is no action context; give the call one, so the reads made
      // inside it are told apart from those of effects.
      let context = ActionContext(id: UInt64(seq), origin: .send)
      (effects, captured) = ActionContext.$current.withValue(context) {
        self.recorder.capture.capture(actionID: context.id) {
          self.base.reduce(into: &state, action: action)
        }
      }
    }
    self.recorder.finish(seq: seq, origin: origin, action: action, captured: captured, state: state)
    return effects
  }
}
