import ComposableArchitecture
import ConcurrencyExtras
import Testing

/// A store is `Observable`: reading its state inside `withObservationTracking` is told of the
/// next action's change, as a SwiftUI view of an `@ObservableState` feature would be.
@MainActor
@Suite struct StoreObservationTests {
  @Test func readingStateTracksTheNextAction() {
    let store = Store(initialState: MacroCounter.State()) { MacroCounter() }
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = store.count
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    #expect(changes.value == 0)
    store.send(.incrementButtonTapped)
    #expect(changes.value == 1)
    #expect(store.count == 1)
    // Tracking is for one change, as Observation's is: track again to hear of the next.
    store.send(.incrementButtonTapped)
    #expect(changes.value == 1)
  }

  @Test func untrackedReadsAreNotTold() {
    let store = Store(initialState: MacroCounter.State()) { MacroCounter() }
    let changes = LockIsolated(0)
    _ = store.state
    withObservationTracking {
      _ = 1
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    store.send(.incrementButtonTapped)
    #expect(changes.value == 0)
  }
}
