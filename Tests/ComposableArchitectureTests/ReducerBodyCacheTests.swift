import ComposableArchitecture
import ConcurrencyExtras
import Foundation
import Testing

/// A `@Reducer` feature builds its body once, not for every action: what the body is made of
/// does not depend on the action. Its dependencies are still read when its reducers run.
@Suite struct ReducerBodyCacheTests {
  @Reducer
  struct Tally {
    @ObservableState
    struct State: Equatable {
      var count = 0
      var stamp = ""
    }
    enum Action { case tapped }

    let bodies: LockIsolated<Int>
    @Dependency(\.date.now) var now

    var body: some ReducerOf<Self> {
      let _ = self.bodies.withValue { $0 += 1 }
      Reduce { state, _ in
        state.count += 1
        state.stamp = "\(self.now.timeIntervalSince1970)"
        return .none
      }
    }
  }

  /// The same feature by hand: its body is read for each action, as `Reducer` does.
  struct PlainTally: Reducer {
    typealias State = Tally.State
    typealias Action = Tally.Action
    let bodies: LockIsolated<Int>

    var body: some ReducerOf<Self> {
      let _ = self.bodies.withValue { $0 += 1 }
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  @Test @MainActor func theBodyIsBuiltOnceAndItsDependenciesAreReadWhenItRuns() async {
    let bodies = LockIsolated(0)
    let store = TestStore(initialState: Tally.State()) {
      Tally(bodies: bodies)
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1)
    }
    await store.send(.tapped) {
      $0.count = 1
      $0.stamp = "1.0"
    }
    // NB: A dependency changed after the body was built is the one its reducer reads.
    store.dependencies.date.now = Date(timeIntervalSince1970: 2)
    await store.send(.tapped) {
      $0.count = 2
      $0.stamp = "2.0"
    }
    await store.send(.tapped) {
      $0.count = 3
    }
    #expect(bodies.value == 1)

    let plainBodies = LockIsolated(0)
    let plain = Store(initialState: Tally.State()) { PlainTally(bodies: plainBodies) }
    for _ in 1...3 { plain.send(.tapped) }
    #expect(plainBodies.value == 3)
  }
}
