// Compiled twice: here, in the Swift 6 language mode, and in ExampleFeaturesSwift5Tests, in the
// Swift 5 mode.
import ComposableArchitecture
import Testing

// A feature whose `body` is a stored reducer naming its types (`let body = Reduce<Int, Int> {
// … }`), as TCA's tests declare one: the macro adds no `State` or `Action` of its own, so the
// names are the ones the body says, here those of the feature it is nested in.
private enum StoredBodies {
  @Reducer
  struct Adder {
    let body = Reduce<Int, Int> { state, action in
      state += action
      return .none
    }
  }

  @Reducer
  struct Outer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case increment }

    @Reducer
    struct Inner {
      let body = Reduce<State, Action> { state, _ in
        state.count += 10
        return .none
      }
    }

    var body: some ReducerOf<Self> {
      Inner()
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }
}

@MainActor
@Suite struct StoredBodyFeatureTests {
  @Test func aStoredBodyNamesTheFeaturesTypes() async {
    let store = TestStore(initialState: 1) { StoredBodies.Adder() }
    await store.send(41) { $0 = 42 }
  }

  @Test func aNestedFeaturesStoredBodyUsesTheOuterTypes() async {
    let store = TestStore(initialState: StoredBodies.Outer.State()) { StoredBodies.Outer() }
    await store.send(.increment) { $0.count = 11 }
  }
}
