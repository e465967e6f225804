import ConcurrencyExtras

/// The effect tasks of a store whose work has not returned yet, by task key, with the action that
/// started each: updated the moment an effect's operation returns, from whatever thread it runs
/// on, so that a test store can tell a finished effect from a running one without waiting for the
/// main actor.
final class _RunningEffects: Sendable {
  private let storage = LockIsolated<[Int: UInt64]>([:])

  var isEmpty: Bool {
    self.storage.value.isEmpty
  }

  var count: Int {
    self.storage.value.count
  }

  /// The actions whose effects are still running.
  var parents: Set<UInt64> {
    Set(self.storage.value.values)
  }

  func start(_ key: Int, parent: UInt64) {
    self.storage.withValue { $0[key] = parent }
  }

  func finish(_ key: Int) {
    self.storage.withValue { $0[key] = nil }
  }

  /// Forgets every running effect, as a test does when it skips them.
  func forgetAll() {
    self.storage.withValue { $0.removeAll() }
  }
}

/// Runs an effect's operation off the main actor and calls `didReturn` as soon as it returns,
/// before the task that awaits it hops back to the main actor.
func _runEffect<Action>(
  _ operation: @Sendable (Send<Action>) async -> Void,
  send: Send<Action>,
  didReturn: @Sendable () -> Void
) async {
  await operation(send)
  didReturn()
}
