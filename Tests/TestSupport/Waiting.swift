import ComposableArchitecture

/// How long a test waits for something that is bound to happen before it counts as hung.
///
/// Not a judgement of speed: a loaded machine can keep an effect or a process waiting for many
/// seconds, never for minutes. Only a test that fails (an effect that never finishes, a process
/// that hangs) waits this long.
public let hangBound: Duration = .seconds(120)

/// Waits until `condition` holds, for at most `timeout`; returns whether it held.
///
/// Effects run as tasks, so a test waits for them to catch up rather than assuming how the
/// scheduler orders them. The default timeout is ``hangBound``: it runs out only when a test
/// fails.
@MainActor
public func eventually(
  timeout: Duration = hangBound,
  _ condition: @MainActor () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: timeout)
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    await Task.megaYield()
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

extension TestClock<Duration> {
  /// Waits until some task is sleeping on the clock, for at most `timeout`; returns whether one
  /// is.
  ///
  /// Advancing the clock before an effect has started to sleep would leave that sleep waiting for
  /// a later advance, so tests call this first.
  @MainActor
  public func waitForSuspension(timeout: Duration = hangBound) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
      do {
        try await self.checkSuspension()
      } catch {
        return true
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return false
  }

  /// Advances the clock by `step` at a time, each time once something sleeps on it, until
  /// `condition` holds; returns whether it did within `maxSteps`.
  ///
  /// Between two advances it waits, for at most ``hangBound``, until either the condition holds
  /// or something sleeps on the clock again: it never guesses how long the effects take.
  @MainActor
  public func advance(
    by step: Duration,
    until condition: @MainActor () -> Bool,
    maxSteps: Int = 50
  ) async -> Bool {
    for _ in 0..<maxSteps {
      let deadline = ContinuousClock.now.advanced(by: hangBound)
      while true {
        if condition() { return true }
        do {
          try await self.checkSuspension()
        } catch {
          break
        }
        guard ContinuousClock.now < deadline else { return false }
        await Task.megaYield()
        try? await Task.sleep(for: .milliseconds(1))
      }
      await self.advance(by: step)
    }
    return condition()
  }
}

/// Whether the store task finishes within `timeout`: a task whose effects were not cancelled
/// would never finish.
@MainActor
public func finishes(_ task: StoreTask, within timeout: Duration = hangBound) async -> Bool {
  let finished = LockIsolated(false)
  Task {
    await task.finish()
    finished.setValue(true)
  }
  return await eventually(timeout: timeout) { finished.value }
}

/// A one-shot signal an effect can wait on, so a test decides when the effect proceeds.
public final class Gate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  public init() {
    (self.stream, self.continuation) = AsyncStream<Void>.makeStream()
  }

  /// Lets every waiter proceed, now and later.
  public func open() {
    self.continuation.finish()
  }

  /// Waits until the gate is open.
  public func wait() async {
    for await _ in self.stream {}
  }
}

/// A test clock that counts the sleeps on it, so a test can wait for a particular one: after a
/// debounced effect is replaced, the cancelled sleep leaves the clock a moment after the new one
/// may have arrived, and ``TestClock/waitForSuspension(timeout:)`` cannot tell them apart.
public final class CountingTestClock: Clock, Sendable {
  public typealias Instant = TestClock<Duration>.Instant
  public let base = TestClock()
  private let counts = LockIsolated((started: 0, active: 0))

  public init() {}

  public var now: Instant { self.base.now }
  public var minimumResolution: Duration { self.base.minimumResolution }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    self.counts.withValue {
      $0.started += 1
      $0.active += 1
    }
    defer { self.counts.withValue { $0.active -= 1 } }
    try await self.base.sleep(until: deadline, tolerance: tolerance)
  }

  /// Waits until the `number`th sleep is on the clock and `sleeping` sleeps are (by default
  /// every earlier one has left it); returns whether that happened within `timeout`.
  @MainActor
  public func waitForSleep(
    number: Int, sleeping: Int = 1, timeout: Duration = hangBound
  ) async -> Bool {
    let counts = self.counts
    guard await eventually(timeout: timeout, { counts.value == (number, sleeping) }) else {
      return false
    }
    return await self.base.waitForSuspension(timeout: timeout)
  }

  /// Advances the clock.
  public func advance(by duration: Duration) async {
    await self.base.advance(by: duration)
  }
}
