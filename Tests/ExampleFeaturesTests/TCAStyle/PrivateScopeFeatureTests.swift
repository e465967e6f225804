// Compiled twice: here, in the Swift 6 language mode, and in ExampleFeaturesSwift5Tests, in the
// Swift 5 mode.
import ComposableArchitecture
import Testing

// A step of a sign-up flow as TCA's shared-state onboarding study declares it: `@Reducer` on a
// `private` struct, `@ObservableState` on the state inside it (whose generated members must
// then be file-private too), and an alert without actions, presented and dismissed through its
// optional, `.ifLet(\.alert, action: \.alert)`.
@Reducer
private struct TopicsStep {
  @ObservableState
  struct State: Equatable {
    @Presents var alert: AlertState<Never>?
    var topics: Set<String> = []
  }
  enum Action: BindableAction {
    case alert(PresentationAction<Never>)
    case binding(BindingAction<State>)
    case nextButtonTapped
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .alert, .binding:
        return .none
      case .nextButtonTapped:
        if state.topics.isEmpty {
          state.alert = AlertState { TextState("Please choose at least one topic.") }
        }
        return .none
      }
    }
    .ifLet(\.alert, action: \.alert)
  }
}

// Features declared inside a `private` enum, as TCA's own tests declare theirs: a `@Reducer`
// enum of destinations, whose `State` and `Action` the macro writes (and marks file-private, for
// the compiler gives the macros that expand on them no scopes around them), beside a feature
// that presents it.
private enum Destinations {
  @Reducer
  struct Counter {
    @ObservableState
    struct State: Equatable {
      var count = 0
    }
    enum Action {
      case incrementButtonTapped
    }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  @Reducer(state: .equatable)
  enum Destination {
    case counter(Counter)
    case alert(AlertState<Never>)
  }

  @Reducer
  struct Feature {
    @ObservableState
    struct State: Equatable {
      @Presents var destination: Destination.State?
    }
    enum Action {
      case destination(PresentationAction<Destination.Action>)
      case counterButtonTapped
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .destination:
          return .none
        case .counterButtonTapped:
          state.destination = .counter(Counter.State())
          return .none
        }
      }
      .ifLet(\.$destination, action: \.destination)
    }
  }
}

@MainActor
@Suite struct PrivateScopeFeatureTests {
  @Test func aDestinationEnumInAPrivateScopeRunsItsFeature() async {
    let store = TestStore(initialState: Destinations.Feature.State()) { Destinations.Feature() }
    await store.send(.counterButtonTapped) {
      $0.destination = .counter(Destinations.Counter.State())
    }
    await store.send(\.destination.counter.incrementButtonTapped) {
      $0.destination = .counter(Destinations.Counter.State(count: 1))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func anAlertWithoutActionsIsDismissedThroughItsOptional() async {
    let store = TestStore(initialState: TopicsStep.State()) { TopicsStep() }
    await store.send(.nextButtonTapped) {
      $0.alert = AlertState { TextState("Please choose at least one topic.") }
    }
    // Any action of an alert dismisses it, `.dismiss` among them, as TCA's `ifLet` does.
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.binding(.set(\.topics, ["Testing"]))) { $0.topics = ["Testing"] }
    await store.send(.nextButtonTapped)
  }
}
