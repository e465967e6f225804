import ComposableArchitecture
import TestSupport
import Testing

/// A child whose "start" action begins a long effect that ticks once a second.
private struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var ticks = 0
  }
  @CasePathable
  enum Action: Equatable {
    case start
    case tick
  }
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while true {
          try await self.clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

private struct Host: Reducer {
  struct State: Equatable {
    var optional: Ticker.State?
    var rows: IdentifiedArrayOf<Ticker.State> = []
  }
  @CasePathable
  enum Action: Equatable {
    case dismiss
    case optional(Ticker.Action)
    case remove(Int)
    case rows(IdentifiedActionOf<Ticker>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .dismiss:
        state.optional = nil
      case let .remove(id):
        state.rows.remove(id: id)
      case .optional, .rows:
        break
      }
      return .none
    }
    .ifLet(\.optional, action: \.optional, then: { Ticker() }, fileID: "Tests/Host.swift", line: 1)
    .forEach(\.rows, action: \.rows, element: { Ticker() }, fileID: "Tests/Host.swift", line: 2)
  }
}

/// A host whose state is a case: the child only runs while the switch is on.
private struct Switch: Reducer {
  @CasePathable
  enum State: Equatable {
    case off
    case on(Ticker.State)
  }
  @CasePathable
  enum Action: Equatable {
    case on(Ticker.Action)
    case turnOff
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .turnOff = action { state = .off }
      return .none
    }
    .ifCaseLet(\.on, action: \.on, then: { Ticker() }, fileID: "Tests/Switch.swift", line: 3)
  }
}

private struct Row: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var log: [String] = []
  }
  enum Action: Equatable { case start, done }
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        try await self.clock.sleep(for: .seconds(1))
        await send(.done)
      }
      .cancellable(id: "work", cancelInFlight: true)
    case .done:
      state.log.append("done")
      return .none
    }
  }
}

@CasePathable
private enum RowsAction {
  case rows(IdentifiedAction<Int, Row.Action>)
}

@MainActor
@Suite struct ChildEffectTeardownTests {
  private func store(_ state: Host.State, clock: TestClock<Duration>) -> StoreOf<Host> {
    Store(initialState: state) {
      Host()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func ifLetCancelsChildEffectsWhenChildStateBecomesNil() async {
    let clock = TestClock()
    let store = self.store(Host.State(optional: Ticker.State()), clock: clock)
    let task = store.send(.optional(.start))
    #expect(await clock.advance(by: .seconds(1)) { (store.optional?.ticks ?? 0) >= 2 })
    store.send(.dismiss)
    #expect(await finishes(task))
    #expect(store.optional == nil)
  }

  @Test func forEachCancelsOnlyTheRemovedElementsEffects() async {
    let clock = TestClock()
    let store = self.store(
      Host.State(rows: [Ticker.State(id: 1), Ticker.State(id: 2)]), clock: clock
    )
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    #expect(await clock.advance(by: .seconds(1)) { store.rows.allSatisfy { $0.ticks >= 1 } })
    store.send(.remove(1))
    #expect(await finishes(first))
    let ticks = store.rows[id: 2]?.ticks ?? 0
    #expect(await clock.advance(by: .seconds(1)) { (store.rows[id: 2]?.ticks ?? 0) > ticks })
    #expect(store.rows.ids == [2])
    second.cancel()
    #expect(await finishes(second))
  }

  @Test func ifCaseLetCancelsChildEffectsWhenTheCaseChanges() async {
    let clock = TestClock()
    let store = Store(initialState: Switch.State.on(Ticker.State())) {
      Switch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.on(.start))
    #expect(await clock.advance(by: .seconds(1)) { store.state != .on(Ticker.State()) })
    store.send(.turnOff)
    #expect(await finishes(task))
    #expect(store.state == .off)
  }

  @Test func sameCancelIDInTwoElementsDoesNotCollide() async {
    let clock = TestClock()
    let rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    let store = Store(initialState: rows) {
      EmptyReducer<IdentifiedArrayOf<Row.State>, RowsAction>()
        .forEach(\.self, action: \.rows) { Row() }
    } withDependencies: {
      $0.continuousClock = clock
    }
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    #expect(
      await clock.advance(by: .seconds(1)) { store.state.map(\.log) == [["done"], ["done"]] }
    )
    #expect(await finishes(first))
    #expect(await finishes(second))
  }

  @Test func actionForNilChildIsReported() async {
    let issues = await recordedIssues {
      let store = self.store(Host.State(), clock: TestClock())
      store.send(.optional(.tick))
    }
    #expect(
      issues == [
        """
        An "ifLet" at "Tests/Host.swift:1" received a child action when child state was "nil".

          Action:
            Host.Action.optional(.tick)

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
        before any other reducer sets child state to "nil". This ensures that child reducers can \
        handle their actions while their state is still available.

        An in-flight effect emitted this action when child state was "nil". While it may be \
        perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state becomes "nil", especially if it is a long-living effect.

        This action was sent to the store while state was "nil". Make sure that actions for this \
        reducer can only be sent from a store when state is non-"nil". In SwiftUI applications, \
        use "IfLetStore".
        """
      ]
    )
  }

  @Test func actionForMissingElementIsReported() async {
    let issues = await recordedIssues {
      let store = self.store(Host.State(), clock: TestClock())
      store.send(.rows(.element(id: 9, action: .tick)))
    }
    #expect(
      issues == [
        """
        A "forEach" at "Tests/Host.swift:2" received an action for a missing element.

          Action:
            Host.Action.rows(.element(id:, action: .tick))

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer removed an element with this ID before this reducer ran. This reducer \
        must run before any other reducer removes an element, which ensures that element reducers \
        can handle their actions while their state is still available.

        An in-flight effect emitted this action when state contained no element at this ID. While \
        it may be perfectly reasonable to ignore this action, consider canceling the associated \
        effect before an element is removed, especially if it is a long-living effect.

        This action was sent to the store while its state contained no element at this ID. To fix \
        this make sure that actions for this reducer can only be sent from a store when its state \
        contains an element at this id. In SwiftUI applications, use "ForEachStore".
        """
      ]
    )
  }

  @Test func actionForAnotherCaseIsReported() async {
    let issues = await recordedIssues {
      let store = Store(initialState: Switch.State.off) { Switch() }
      store.send(.on(.tick))
    }
    #expect(
      issues == [
        """
        An "ifCaseLet" at "Tests/Switch.swift:3" received a child action when child state was set \
        to a different case.

          Action:
            Switch.Action.on(.tick)
          State:
            Switch.State.off

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set "Switch.State" to a different case before this reducer ran. This \
        reducer must run before any other reducer sets child state to a different case. This \
        ensures that child reducers can handle their actions while their state is still available.

        An in-flight effect emitted this action when child state was unavailable. While it may be \
        perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state changes to another case, especially if it is a long-living effect.

        This action was sent to the store while state was another case. Make sure that actions for \
        this reducer can only be sent from a store when state is set to the appropriate case. In \
        SwiftUI applications, use "SwitchStore".
        """
      ]
    )
  }
}
