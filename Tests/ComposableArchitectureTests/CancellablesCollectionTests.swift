@_spi(Internals) import ComposableArchitecture
import TestSupport
import Testing

/// The process-wide view of cancellable effects in flight that TCA's tests check after each test
/// (`_cancellationCancellables`): an effect is in it from its start until it is cancelled or
/// returns. Other suites run at the same time, so each test looks for an identifier of its own.
@MainActor
@Suite struct CancellablesCollectionTests {
  @Reducer
  struct Timer {
    struct State: Equatable {}
    enum Action { case start, stop }
    let id: String
    var body: some ReducerOf<Self> {
      Reduce { _, action in
        switch action {
        case .start:
          return .run { _ in try await Task.never() }.cancellable(id: self.id)
        case .stop:
          return .cancel(id: self.id)
        }
      }
    }
  }

  func isInFlight(_ id: String) -> Bool {
    _cancellationCancellables.withValue { $0.exists(at: id, path: NavigationIDPath()) }
  }

  @Test func aCancellableEffectIsInItUntilItIsCancelled() async {
    let id = "timer-\(UInt64.random(in: 0...UInt64.max))"
    let store = Store(initialState: Timer.State()) { Timer(id: id) }
    #expect(!self.isInFlight(id))
    store.send(.start)
    #expect(self.isInFlight(id))
    #expect(_cancellationCancellables.count >= 1)
    store.send(.stop)
    #expect(!self.isInFlight(id))
  }

  @Test func aLeakedEffectIsThereForATearDownToFind() async {
    let id = "leak-\(UInt64.random(in: 0...UInt64.max))"
    let store = Store(initialState: Timer.State()) { Timer(id: id) }
    let task = store.send(.start)
    // NB: What TCA's base test case checks after each test: this one left an effect running.
    #expect(self.isInFlight(id))
    task.cancel()
    await task.finish()
    #expect(!self.isInFlight(id))
  }

  @Test func anEffectCancelledByIDIsForgottenAtOnceThoughItIsSlowToStop() async {
    let id = "slow-\(UInt64.random(in: 0...UInt64.max))"
    // NB: An operation that does not look at cancellation, as a download on Linux does not.
    let waiting = LockIsolated<CheckedContinuation<Void, Never>?>(nil)
    let effect = Effect<Never>.run { _ in
      await withCheckedContinuation { continuation in waiting.setValue(continuation) }
    }
    .cancellable(id: id)
    let consumer = Task { for await _ in effect.actions {} }
    #expect(await eventually { self.isInFlight(id) && waiting.value != nil })
    Task.cancel(id: id)
    #expect(!self.isInFlight(id))
    waiting.value?.resume()
    await consumer.value
    #expect(!self.isInFlight(id))
  }

  @Test func anOperationCancelledByIDAsSoonAsItStartsIsCancelled() async {
    // NB: The operation runs at once, on another thread: a cancellation it prompts must find
    // it registered, however soon it comes.
    for round in 0..<200 {
      let id = "early-\(round)-\(UInt64.random(in: 0...UInt64.max))"
      let (started, didStart) = AsyncStream.makeStream(of: Void.self)
      let cancelled = LockIsolated(false)
      let task = Task {
        do {
          try await withTaskCancellation(id: id) {
            didStart.yield()
            didStart.finish()
            try await Task.never()
          }
        } catch {
          cancelled.setValue(true)
        }
      }
      for await _ in started { break }
      Task.cancel(id: id)
      let wasCancelled = await eventually(timeout: .seconds(5)) { cancelled.value }
      #expect(wasCancelled, "round \(round)")
      guard wasCancelled else {
        task.cancel()
        return
      }
    }
  }
}
