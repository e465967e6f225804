import Foundation

/// The actions effects fed back that the test has yet to receive, and the action and source
/// location that started each action the store reduced.
///
/// The test store and its core share it: the core writes to it directly rather than through the
/// test store, so that an action an effect feeds back while the test store goes away (whose
/// end-of-test check waits a moment for running effects) is still counted.
final class _ReceivedLog<Action, State>: @unchecked Sendable {
  private let lock = NSLock()
  private var _received: [(action: Action, state: State)] = []
  private var _provenance: [UInt64: (action: Action, location: _SourceLocation)] = [:]

  /// The actions effects fed back, not received yet, with the state after each.
  var received: [(action: Action, state: State)] {
    get { self.lock.withLock { self._received } }
    set { self.lock.withLock { self._received = newValue } }
  }

  /// The action each reduced action's number stands for, and the line that sent it or the line
  /// that sent the action whose effect fed it back.
  var provenance: [UInt64: (action: Action, location: _SourceLocation)] {
    get { self.lock.withLock { self._provenance } }
    set { self.lock.withLock { self._provenance = newValue } }
  }

  /// Records an action an effect of action `parent` fed back, and the state after it.
  func recordFedBack(
    _ action: Action, id: UInt64, parent: UInt64, state: State, fallback: _SourceLocation
  ) {
    self.lock.withLock {
      self._received.append((action, state))
      self._provenance[id] = (action, self._provenance[parent]?.location ?? fallback)
    }
  }
}
