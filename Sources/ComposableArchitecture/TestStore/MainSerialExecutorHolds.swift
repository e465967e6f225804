import ConcurrencyExtras
import Foundation

/// The test stores alive that run async work on the main serial executor
/// (``TestStore/useMainSerialExecutor``). The first turns it on; when the last lets go, the
/// setting before it is put back. Counted, not saved by
/// each store, so that tests running in parallel (Swift Testing's default), whose stores come and
/// go in any order, never leave it on, or off, behind them.
enum _MainSerialExecutorHolds {
  private static let state = LockIsolated((count: 0, before: false))

  static func acquire() {
    state.withValue { state in
      if state.count == 0 {
        state.before = uncheckedUseMainSerialExecutor
        uncheckedUseMainSerialExecutor = true
      }
      state.count += 1
    }
  }

  static func release() {
    state.withValue { state in
      guard state.count > 0 else { return }
      state.count -= 1
      if state.count == 0 {
        uncheckedUseMainSerialExecutor = state.before
      }
    }
  }
}
