#if !canImport(Darwin)
  /// Nanoseconds in a second, as Darwin's `NSEC_PER_SEC`: `Task.sleep(nanoseconds: NSEC_PER_SEC
  /// / 2)` reads the same on Linux, where Glibc has no such constant.
  public let NSEC_PER_SEC: UInt64 = 1_000_000_000
  /// Nanoseconds in a millisecond, as Darwin's `NSEC_PER_MSEC`.
  public let NSEC_PER_MSEC: UInt64 = 1_000_000
#endif
