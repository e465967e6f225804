import ConcurrencyExtras

/// The effect tasks of a store whose work has not returned yet, by task key, with the action that
/// started each: updated the moment an effect's operation returns, from whatever thread it runs
/// on, so that a test store can tell a finished effect from a running one without waiting for the
/// main actor.
final class _RunningEffects: Sendable {
  private let storage = LockIsolated<(asserted: [Int: UInt64], skipped: Set<Int>)>(([:], []))

  /// Whether no effect the test still asserts on is running (skipped ones aside).
  var isEmpty: Bool {
    self.storage.value.asserted.isEmpty
  }

  /// Whether no effect runs at all, skipped ones included: until then, one may still send an
  /// action a test waits for.
  var noneRunning: Bool {
    self.storage.withValue { $0.asserted.isEmpty && $0.skipped.isEmpty }
  }

  var count: Int {
    self.storage.value.asserted.count
  }

  /// The actions whose effects are still running.
  var parents: Set<UInt64> {
    Set(self.storage.value.asserted.values)
  }

  func start(_ key: Int, parent: UInt64) {
    self.storage.withValue { $0.asserted[key] = parent }
  }

  func finish(_ key: Int) {
    self.storage.withValue {
      $0.asserted[key] = nil
      $0.skipped.remove(key)
    }
  }

  /// Stops asserting on every running effect, as a test does when it skips them: they run on.
  func forgetAll() {
    self.storage.withValue {
      $0.skipped.formUnion($0.asserted.keys)
      $0.asserted.removeAll()
    }
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
