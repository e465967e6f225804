import ConcurrencyExtras
import Foundation

/// The test stores alive that run async work on the main serial executor
/// (``TestStore/useMainSerialExecutor``).
///
/// Tests that run one at a time (XCTest) take the setting as TCA's do: each store turns it on
/// and puts back, when it goes, what it found, even while a store of an earlier test is still
/// alive. Tests that run at the same time (Swift Testing), whose stores come and go in any
/// order, share it: the first turns it on, and only when the last lets go is the setting before
/// the first put back, so that none leaves it on, or off, behind them.
enum _MainSerialExecutorHolds {
  private static let state = LockIsolated((count: 0, beforeFirst: false))

  /// Turns the setting on; returns what it was.
  static func acquire() -> Bool {
    state.withValue { state in
      let before = uncheckedUseMainSerialExecutor
      if state.count == 0 { state.beforeFirst = before }
      state.count += 1
      uncheckedUseMainSerialExecutor = true
      return before
    }
  }

  /// Lets go of a hold that found the setting at `before`.
  static func release(restoring before: Bool, oneTestAtATime: Bool) {
    state.withValue { state in
      guard state.count > 0 else { return }
      state.count -= 1
      if oneTestAtATime {
        uncheckedUseMainSerialExecutor = before
      } else if state.count == 0 {
        uncheckedUseMainSerialExecutor = state.beforeFirst
      }
    }
  }
}
