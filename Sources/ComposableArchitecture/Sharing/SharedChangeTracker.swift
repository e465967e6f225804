import Dependencies
import Foundation

/// The shared values a test store's reducers and effects changed since its last assertion, each
/// with its value as of then (the box's snapshot), so that the next assertion must say how they
/// changed, as it must for the rest of the state.
public final class _SharedChangeTracker: @unchecked Sendable {
  // NB: Unchecked: `changed` is read and written under `lock`.
  private let lock = NSLock()
  private var changed: [ObjectIdentifier: any _AnySharedBox] = [:]

  init() {}

  /// Whether a shared value changed since the last assertion.
  var hasChanges: Bool {
    self.lock.withLock { !self.changed.isEmpty }
  }

  func track(_ box: some _AnySharedBox) {
    self.lock.withLock { self.changed[ObjectIdentifier(box)] = box }
  }

  /// Forgets the changes once asserted: the values they left are the new expectation.
  func clear() {
    let changed = self.lock.withLock {
      defer { self.changed.removeAll() }
      return Array(self.changed.values)
    }
    for box in changed { box.clearSnapshot() }
  }
}

/// Whether the code running is a test store's assertion: there, a shared value reads and writes
/// its snapshot (what the test expects), and a comparison with the same shared value outside
/// the assertion compares the snapshot with the value.
enum _SharedAssertion {
  /// The tracker of the test store asserting, if any.
  @TaskLocal static var tracker: _SharedChangeTracker?

  static var isAsserting: Bool { Self.tracker != nil }
}

private enum SharedChangeTrackerKey: DependencyKey {
  static let liveValue: _SharedChangeTracker? = nil
  static let testValue: _SharedChangeTracker? = nil
}

extension DependencyValues {
  /// The tracker of the test store whose reducers and effects are running, if any.
  var _sharedChangeTracker: _SharedChangeTracker? {
    get { self[SharedChangeTrackerKey.self] }
    set { self[SharedChangeTrackerKey.self] = newValue }
  }
}
