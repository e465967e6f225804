import ComposableArchitecture
import Testing

/// The operators with a case path made by `/Action.child` (CasePaths' `AnyCasePath`), as TCA's
/// own tests still write them: each runs the child as its case-key-path form does.
@MainActor
@Suite struct AnyCasePathOperatorTests {
  @Reducer
  struct Counter {
    struct State: Equatable, Identifiable {
      var id = 0
      var count = 0
    }
    enum Action: Equatable { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable {
      var optional: Counter.State?
      @Presents var presented: Counter.State?
      var rows: IdentifiedArrayOf<Counter.State> = []
      var path = StackState<Counter.State>()
    }
    enum Action: Equatable {
      case optional(Counter.Action)
      case presented(PresentationAction<Counter.Action>)
      case row(id: Int, action: Counter.Action)
      case path(StackAction<Counter.State, Counter.Action>)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifLet(\.optional, action: /Action.optional) { Counter() }
        .ifLet(\.$presented, action: /Action.presented) { Counter() }
        .forEach(\.rows, action: /Action.row(id:action:)) { Counter() }
        .forEach(\.path, action: /Action.path) { Counter() }
    }
  }

  @Test func eachOperatorRunsItsChild() async {
    var state = Parent.State()
    state.optional = Counter.State()
    state.presented = Counter.State()
    state.rows = [Counter.State(id: 7)]
    // NB: A screen pushed outside a store takes the next identity of the process's counter,
    // which other tests move: the test reads the one it got.
    state.path.append(Counter.State())
    let pathID = state.path.ids[0]
    let store = TestStore(initialState: state) { Parent() }
    await store.send(.optional(.increment)) { $0.optional?.count = 1 }
    await store.send(.presented(.presented(.increment))) { $0.presented?.count = 1 }
    await store.send(.row(id: 7, action: .increment)) { $0.rows[id: 7]?.count = 1 }
    await store.send(.path(.element(id: pathID, action: .increment))) {
      $0.path[id: pathID]?.count = 1
    }
  }

  enum Screen: Equatable {
    case counter(Counter.State)
    case other
  }
  enum ScreenAction: Equatable { case counter(Counter.Action) }

  @Test func ifCaseLetAndScopeRunTheCaseThatIsThere() async {
    let store = TestStore(initialState: Screen.counter(Counter.State())) {
      Scope(state: /Screen.counter, action: /ScreenAction.counter) { Counter() }
      EmptyReducer<Screen, ScreenAction>()
        .ifCaseLet(/Screen.counter, action: /ScreenAction.counter) { Counter() }
    }
    await store.send(.counter(.increment)) { $0 = .counter(Counter.State(count: 2)) }
  }
}
