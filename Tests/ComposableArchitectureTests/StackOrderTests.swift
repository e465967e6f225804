// The order of a stack's pushes and pops against the parent's reducer, as TCA's `forEach` on a
// `StackState` runs them: a pushed screen is there when the parent runs; a popped one is still
// there when the parent runs, and gone after.
import ComposableArchitecture
import Testing

@Reducer
struct Counting {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
  enum Action: Equatable {
    case incrementButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

@Reducer
struct CountingStack {
  @ObservableState
  struct State: Equatable {
    var path = StackState<Counting.State>()
    /// How many screens the parent saw on the stack when it ran for each push and pop.
    var seen: [Int] = []
  }
  enum Action: Equatable {
    case path(StackAction<Counting.State, Counting.Action>)
    case pushButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.push), .path(.popFrom):
        state.seen.append(state.path.count)
        return .none
      case .path:
        return .none
      case .pushButtonTapped:
        state.path.append(Counting.State(count: 10))
        return .none
      }
    }
    .forEach(\.path, action: \.path) {
      Counting()
    }
  }
}

@MainActor
@Suite struct StackOrderTests {
  @Test func aPushedScreenIsThereWhenTheParentRuns() async {
    let store = TestStore(initialState: CountingStack.State()) { CountingStack() }
    await store.send(.path(.push(id: 0, state: Counting.State()))) {
      $0.path[id: 0] = Counting.State()
      $0.seen = [1]
    }
    // The identity pushed is taken: the parent's own push gets the next one.
    await store.send(.pushButtonTapped) {
      $0.path[id: 1] = Counting.State(count: 10)
    }
    await store.send(\.path[id: 1].incrementButtonTapped) {
      $0.path[id: 1]?.count = 11
    }
    // A pop runs the parent with the screens still there, then pops them.
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = StackState()
      $0.seen = [1, 2]
    }
  }
}
