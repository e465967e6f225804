import ActionLog
import ComposableArchitecture

extension Reducer {
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
public struct _RecordingReducer<Base: Reducer>: Reducer {
  let base: Base
  let recorder: Recorder<Base.State, Base.Action>

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let context = ActionContext.current
    guard let opened = self.recorder.begin(context: context, base: DependencyValues._current) else {
      return self.base.reduce(into: &state, action: action)
    }
    let effects: Effect<Base.Action>
    if let dependencies = opened.dependencies {
      effects = DependencyValues.$_current.withValue(dependencies) {
        if context == nil {
          ActionContext.$current.withValue(opened.context) {
            self.base.reduce(into: &state, action: action)
          }
        } else {
          self.base.reduce(into: &state, action: action)
        }
      }
    } else {
      // NB: In a store prepared by `_prepare(storeDependencies:)`, whose action context is set.
      effects = self.base.reduce(into: &state, action: action)
    }
    self.recorder.finish(opened, action: action, state: state, effects: effects.shape)
    return effects
  }
}

extension _RecordingReducer: _StoreDependencyPreparing {
  /// Wraps the store's recorded dependencies once, so that actions run with them in place.
  public func _prepare(storeDependencies dependencies: inout DependencyValues) {
    dependencies = self.recorder.prepare(storeDependencies: dependencies)
  }
}
