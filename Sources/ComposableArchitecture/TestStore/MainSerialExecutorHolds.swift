import ConcurrencyExtras
import Foundation

/// The test stores alive that run async work on the main serial executor
/// (``TestStore/useMainSerialExecutor``), each with the setting it found. A store turns it on; a
/// store that goes away last-in-first-out puts back the setting it found, as TCA's does (a test
/// that set it itself, after an earlier store was left alive, finds its own setting again); one
/// that goes away out of order (tests running in parallel) leaves it to those still alive, and the
/// last to go puts back what the first found.
@_spi(Internals) public enum _MainSerialExecutorHolds {
  private static let state = LockIsolated(
    (base: false, holds: [(id: ObjectIdentifier, before: Bool)]()))

  public static func acquire(_ holder: AnyObject) {
    let id = ObjectIdentifier(holder)
    state.withValue { state in
      if state.holds.isEmpty { state.base = uncheckedUseMainSerialExecutor }
      state.holds.append((id, uncheckedUseMainSerialExecutor))
      uncheckedUseMainSerialExecutor = true
    }
  }

  public static func release(_ holder: AnyObject) {
    let id = ObjectIdentifier(holder)
    state.withValue { state in
      guard let index = state.holds.lastIndex(where: { $0.id == id }) else { return }
      let hold = state.holds.remove(at: index)
      if state.holds.isEmpty {
        uncheckedUseMainSerialExecutor = state.base
      } else if index == state.holds.endIndex {
        uncheckedUseMainSerialExecutor = hold.before
      }
    }
  }
}

/// Lets the effects a step started run before the test goes on: with async work serialized on
/// the main thread, as many turns of it as effects that do not wait on a clock need; otherwise a
/// few trips through the global executor.
func _letEffectsRun() async {
  if uncheckedUseMainSerialExecutor {
    for _ in 0..<200 { await Task.yield() }
  } else {
    await Task.megaYield()
  }
}
