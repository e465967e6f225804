@_spi(Internals) import ComposableArchitecture
import Foundation
import Testing

/// Cancellation as TCA's own tests pin it: a parent's `cancel(id:)` reaches the effects its
/// presented children started under that identifier; an effect of a single action is delivered even when it cancels its own identifier in flight.
@MainActor
@Suite struct CancellationParityTests {
  @Reducer
  struct Child {
    struct State: Equatable {}
    enum Action: Equatable { case start }
    enum CancelID { case effect }
    var body: some ReducerOf<Self> {
      Reduce { _, _ in
        .run { _ in try await Task.never() }.cancellable(id: CancelID.effect)
      }
    }
  }

  @Reducer
  struct Parent {
    struct State: Equatable {
      @Presents var child: Child.State?
    }
    enum Action: Equatable {
      case child(PresentationAction<Child.Action>)
      case present
      case stop
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .present:
          state.child = Child.State()
          return .none
        case .stop:
          return .cancel(id: Child.CancelID.effect)
        case .child:
          return .none
        }
      }
      .ifLet(\.$child, action: \.child) { Child() }
    }
  }

  @Test func aParentsCancelReachesItsPresentedChildsEffect() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.present) { $0.child = Child.State() }
    await store.send(.child(.presented(.start)))
    #expect(
      _cancellationCancellables.withValue {
        $0.exists(at: Child.CancelID.effect, path: NavigationIDPath())
      })
    await store.send(.stop)
    // NB: Without reaching the child's effect, the test store fails here: it is still running.
    #expect(
      !_cancellationCancellables.withValue {
        $0.exists(at: Child.CancelID.effect, path: NavigationIDPath())
      })
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  @Reducer
  struct Both {
    // NB: Its own identifier: tests run in parallel, and the registry is the process's.
    enum CancelID { case effect }
    struct State: Equatable {
      @Presents var child: Canceller.State?
    }
    enum Action: Equatable {
      case child(PresentationAction<Canceller.Action>)
      case start
    }
    var body: some ReducerOf<Self> {
      Reduce { _, action in
        guard case .start = action else { return .none }
        return .run { _ in try await Task.never() }.cancellable(id: Both.CancelID.effect)
      }
      .ifLet(\.$child, action: \.child) { Canceller() }
    }
  }

  @Reducer
  struct Canceller {
    struct State: Equatable {}
    enum Action: Equatable { case stop }
    var body: some ReducerOf<Self> {
      Reduce { _, _ in .cancel(id: Both.CancelID.effect) }
    }
  }

  @Test func aChildsCancelDoesNotReachItsParentsEffect() async {
    let store = TestStore(initialState: Both.State(child: Canceller.State())) { Both() }
    await store.send(.start)
    await store.send(.child(.presented(.stop)))
    #expect(
      _cancellationCancellables.withValue {
        $0.exists(at: Both.CancelID.effect, path: NavigationIDPath())
      })
    await store.skipInFlightEffects()
  }

  @Test func anActionEffectCancellingItsOwnIdentifierTwiceIsStillDelivered() async {
    let effect = Effect.send(42)
      .cancellable(id: "id", cancelInFlight: true)
      .cancellable(id: "id", cancelInFlight: true)
    var received: [Int] = []
    for await action in effect.actions { received.append(action) }
    #expect(received == [42])
  }
}
