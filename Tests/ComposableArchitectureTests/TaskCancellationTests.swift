@_spi(Internals) import ComposableArchitecture
import Testing

/// Cancellation outside a store, as TCA's tests use it: `withTaskCancellation(id:)`,
/// `Task.cancel(id:)`, and an effect's actions run on their own. Other suites run at the same
/// time, so each test uses an identifier of its own.
@Suite struct TaskCancellationTests {
  func uniqueID() -> String { "cancel-\(UInt64.random(in: 0...UInt64.max))" }

  func isRegistered(_ id: String) -> Bool {
    _cancellationCancellables.withValue { $0.exists(at: id, path: NavigationIDPath()) }
  }

  @Test func anOperationIsCancelledByItsIdentifier() async throws {
    let id = self.uniqueID()
    let (started, didStart) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      try await withTaskCancellation(id: id) {
        didStart.yield()
        try await Task.never()
      }
    }
    await started.first { true }
    #expect(self.isRegistered(id))
    Task.cancel(id: id)
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(!self.isRegistered(id))
  }

  @Test func cancelInFlightCancelsTheOperationBefore() async throws {
    let id = self.uniqueID()
    let (started, didStart) = AsyncStream.makeStream(of: Void.self)
    let first = Task {
      try await withTaskCancellation(id: id) {
        didStart.yield()
        try await Task.never()
      }
    }
    await started.first { true }
    let second = await withTaskCancellation(id: id, cancelInFlight: true) { 42 }
    #expect(second == 42)
    await #expect(throws: CancellationError.self) { try await first.value }
  }

  @Test func aNonThrowingOperationNeedsNoTry() async {
    let value = await withTaskCancellation(id: self.uniqueID()) { "done" }
    #expect(value == "done")
  }

  @Test func anEffectsActionsAreItsSendsInOrder() async {
    var received: [Int] = []
    let effect = Effect<Int>.concatenate(
      .send(1),
      .run { send in await send(2) },
      .merge(.send(3))
    )
    for await action in effect.actions { received.append(action) }
    #expect(received == [1, 2, 3])
  }

  @Test func aCancellableEffectRunOnItsOwnIsRegisteredWhileItRuns() async {
    let id = self.uniqueID()
    let isRegistered = self.isRegistered
    let effect = Effect<Bool>.run { send in
      await send(isRegistered(id))
    }
    .cancellable(id: id)
    var received: [Bool] = []
    for await action in effect.actions { received.append(action) }
    #expect(received == [true])
    #expect(!self.isRegistered(id))
  }

  @Test func cancellingAnEffectByItsIdentifierEndsItsActions() async {
    let id = self.uniqueID()
    let effect = Effect<Int>.run { send in
      await send(1)
      try? await Task.never()
      await send(2)
    }
    .cancellable(id: id)
    var received: [Int] = []
    for await action in effect.actions {
      received.append(action)
      Task.cancel(id: id)
    }
    #expect(received == [1])
  }
}
