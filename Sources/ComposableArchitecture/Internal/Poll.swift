import Dispatch

/// Yields to other tasks until `condition` holds or `timeout` has passed; returns whether it held.
///
/// The timeout counts only the time in which tasks could run (see ``_RunnableTime``): each round
/// of waiting goes through the global executor and back to the main actor.
@MainActor
func _poll(timeout: Duration, until condition: () -> Bool) async -> Bool {
  var time = _RunnableTime()
  while !condition() {
    guard time.counted < timeout else { return false }
    await Task.megaYield()
    if !condition() {
      try? await Task.sleep(for: .microseconds(200))
      await Task.detached {}.value
    }
    time.endRound()
  }
  return true
}

/// The time spent waiting for tasks, counted in rounds that each pass through the executors the
/// tasks need: a round that takes longer than ``roundLimit`` found them busy with other work
/// (other tests, on a loaded machine), in which a task waiting to run could not run either, and
/// counts as ``roundLimit``.
struct _RunnableTime {
  /// The most one round counts: far more than a round takes when tasks run as soon as they can
  /// (under a millisecond).
  static let roundLimit = Duration.milliseconds(5)

  private let clock = ContinuousClock()
  private var last: ContinuousClock.Instant
  /// The time counted so far.
  private(set) var counted = Duration.zero

  init() {
    self.last = self.clock.now
  }

  /// Counts the round since the last one (or since the start).
  mutating func endRound() {
    let now = self.clock.now
    self.counted += min(now - self.last, Self.roundLimit)
    self.last = now
  }

  /// Waits, blocking, until a task runs on the global executor, or `limit` has passed (the
  /// executor may be waiting for this very thread).
  static func passThroughGlobalExecutor(waitingAtMost limit: DispatchTimeInterval) {
    let semaphore = DispatchSemaphore(value: 0)
    Task.detached { semaphore.signal() }
    _ = semaphore.wait(timeout: .now() + limit)
  }
}
