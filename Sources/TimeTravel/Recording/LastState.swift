/// The state after the last action a recorder finished, for the checkpoint it writes at close.
///
/// Guarded by the recorder's lock. Kept in memory of its own rather than in a stored property:
/// each action sets it and clears it again, and a class's stored property pays a dynamic
/// exclusivity check on every access, and an assignment a copy of the value it replaces.
/// Clearing releases the state without putting another in its place.
final class LastState<State>: @unchecked Sendable {
  private let storage = UnsafeMutablePointer<State>.allocate(capacity: 1)
  private let isSet: UnsafeMutablePointer<Bool>

  init() {
    self.isSet = .allocate(capacity: 1)
    self.isSet.initialize(to: false)
  }

  deinit {
    self.clear()
    self.storage.deallocate()
    self.isSet.deallocate()
  }

  /// The state, if one is kept.
  var value: State? {
    self.isSet.pointee ? self.storage.pointee : nil
  }

  /// Keeps `state`.
  @inline(__always)
  func set(_ state: State) {
    if self.isSet.pointee {
      self.storage.pointee = state
    } else {
      self.storage.initialize(to: state)
      self.isSet.pointee = true
    }
  }

  /// Lets go of the state kept, if any.
  @inline(__always)
  func clear() {
    guard self.isSet.pointee else { return }
    self.storage.deinitialize(count: 1)
    self.isSet.pointee = false
  }
}
