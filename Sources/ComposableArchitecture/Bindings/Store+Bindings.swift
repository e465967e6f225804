import CustomDump
import IssueReporting

extension Store where State: ObservableState, Action: BindableAction, Action.State == State {
  /// Reads a field of the state, and writes it by sending a binding action: `store.name = "Blob"`
  /// sends `.binding(.set(\.name, "Blob"))`, as a SwiftUI binding to the store does.
  ///
  /// A write that no ``BindingReducer`` applies is reported: the feature's `body` is missing one.
  @_disfavoredOverload
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { self.state[keyPath: keyPath] }
    set {
      var binding = BindingAction<State>.set(keyPath, newValue)
      let applied = _BindingApplied()
      binding.applied = applied
      // NB: An action sent while the store is processing another waits its turn, so only one
      // sent from outside is known to be over when `send` returns.
      let isProcessing = self.core.isProcessingActions
      self.send(.binding(binding))
      guard !isProcessing, !applied.value else { return }
      var value = ""
      customDump(newValue, to: &value, maxDepth: 0)
      reportIssue(
        """
        A binding action sent from a store was not handled.

          Action:
            \(typeNameWithoutModules(Action.self)).binding(.set(_, \(value)))

        To fix this, invoke "BindingReducer()" from your feature reducer's "body".
        """
      )
    }
  }
}
