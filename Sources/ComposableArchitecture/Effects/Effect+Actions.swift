import ConcurrencyExtras

extension Effect {
  /// The actions the effect sends, in order, as it runs on its own, outside a store: for testing
  /// an effect by itself.
  ///
  /// ```swift
  /// for await action in effect.actions { … }
  /// ```
  ///
  /// Merged effects run at the same time, concatenated ones one after another; a cancellable
  /// effect can be cancelled by its identifier (`Task.cancel(id:)`) while it runs, and the
  /// sequence ends when the effect has. Cancelling the task that iterates cancels the effect.
  public var actions: AsyncStream<Action> {
    // NB: An effect is immutable, and its closures are `Sendable`.
    let effect = UncheckedSendable(self)
    return AsyncStream { continuation in
      let task = Task { @MainActor in
        await effect.value.run { action in
          nonisolated(unsafe) let action = action
          continuation.yield(action)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  @MainActor
  private func run(_ yield: @escaping @MainActor @Sendable (Action) -> Void) async {
    // NB: Matched outside the region checker's view, which cannot follow an indirect enum here.
    let operation = UncheckedSendable(self.structure)
    switch operation.value {
    case .none:
      return
    case let .send(action, _):
      // NB: Delivered as it starts, as TCA's synchronous effect is: a cancellation in flight
      // (`cancelInFlight` of its own identifier, twice over) cannot stop it.
      yield(action)
    case let .run(_, _, operation):
      await operation(Send(send: yield))
    case let .merge(effects):
      let tasks = effects.map { effect in
        let effect = UncheckedSendable(effect)
        return Task { @MainActor in await effect.value.run(yield) }
      }
      await withTaskCancellationHandler {
        for task in tasks { await task.value }
      } onCancel: {
        for task in tasks { task.cancel() }
      }
    case let .concatenate(effects):
      for effect in effects {
        guard !Task.isCancelled else { return }
        await effect.run(yield)
      }
    case let .cancellable(id, cancelInFlight, effect):
      let effect = UncheckedSendable(effect)
      await withTaskCancellation(id, cancelInFlight: cancelInFlight) { @MainActor in
        await effect.value.run(yield)
      }
    case let .cancel(target):
      guard case let .id(id) = target else { return }
      _cancellationCancellables.withValue { $0.cancel(id: id) }
    }
  }
}
