#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The clock a recorder times actions with: the one `ContinuousClock` reads (it keeps counting
/// while the machine sleeps), as plain nanoseconds.
///
/// Each action reads it once on the sending thread. `ContinuousClock.now - start` computes with
/// 128-bit attoseconds; this is one read of the clock (answered without a system call) and a
/// subtraction.
enum MonotonicClock {
  @inline(__always)
  static func nanoseconds() -> Int64 {
    #if canImport(Darwin)
      return Int64(clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW))
    #else
      var time = timespec()
      clock_gettime(CLOCK_BOOTTIME, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #endif
  }
}
