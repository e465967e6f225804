import ComposableArchitecture

/// Waits until `condition` holds, for at most `timeout`; returns whether it held.
///
/// Effects run as tasks, so a test waits for them to catch up rather than assuming how the
/// scheduler orders them. The default timeout is long: it runs out only when a test fails, and
/// a loaded machine can keep an effect waiting for seconds.
@MainActor
public func eventually(
  timeout: Duration = .seconds(30),
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
  public func waitForSuspension(timeout: Duration = .seconds(30)) async -> Bool {
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
  @MainActor
  public func advance(
    by step: Duration,
    until condition: @MainActor () -> Bool,
    maxSteps: Int = 50
  ) async -> Bool {
    for _ in 0..<maxSteps {
      if condition() { return true }
      _ = await self.waitForSuspension(timeout: .seconds(1))
      await self.advance(by: step)
      _ = await eventually(timeout: .milliseconds(100), condition)
    }
    return condition()
  }
}

/// Whether the store task finishes within `timeout`: a task whose effects were not cancelled
/// would never finish.
@MainActor
public func finishes(_ task: StoreTask, within timeout: Duration = .seconds(30)) async -> Bool {
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
