#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A plain, non-recursive lock for the recorder's per-action bookkeeping.
///
/// Recording takes the lock twice per action on the store's thread. Foundation's recursive lock
/// behind `LockIsolated` costs several times what an uncontended mutex does, and its generic
/// closure, called across a module boundary with a generic state type, asks the runtime for type
/// metadata on every call; both showed in profiles of `Store.send`.
final class Lock: @unchecked Sendable {
  #if canImport(Darwin)
    private let primitive: UnsafeMutablePointer<os_unfair_lock>
  #else
    private let primitive: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  init() {
    #if canImport(Darwin)
      self.primitive = .allocate(capacity: 1)
      self.primitive.initialize(to: os_unfair_lock())
    #else
      self.primitive = .allocate(capacity: 1)
      self.primitive.initialize(to: pthread_mutex_t())
      pthread_mutex_init(self.primitive, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(self.primitive)
    #endif
    self.primitive.deinitialize(count: 1)
    self.primitive.deallocate()
  }

  /// Runs `body` holding the lock. `body` must not take it again.
  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    #if canImport(Darwin)
      os_unfair_lock_lock(self.primitive)
      defer { os_unfair_lock_unlock(self.primitive) }
    #else
      pthread_mutex_lock(self.primitive)
      defer { pthread_mutex_unlock(self.primitive) }
    #endif
    return try body()
  }
}
