import ComposableArchitecture
import TestSupport
import Testing

private struct Tally: Reducer {
  struct State: Equatable {
    var count = 0
    var name = "tally"
  }
  @CasePathable
  enum Action: Equatable {
    case child(Child)
    case increment
    case noop
  }
  enum Child: Equatable {
    case tapped(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if action == .increment { state.count += 1 }
    return .none
  }
}

@MainActor
@Suite struct PrintChangesTests {
  @Test func printsTheActionAndTheStateDiff() {
    var output: [String] = []
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges(.customDump { output.append($0) })
    }
    store.send(.increment)
    store.send(.noop)
    #expect(
      output == [
        """
        received action:
          Tally.Action.increment
          Tally.State(
        -   count: 0,
        +   count: 1,
            name: "tally"
          )
        """,
        """
        received action:
          Tally.Action.noop
          (No state changes)
        """,
      ]
    )
  }

  @Test func actionLabelsPrintOnlyTheCasePath() {
    var output: [String] = []
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges(.actionLabels { output.append($0) })
    }
    store.send(.increment)
    store.send(.child(.tapped(3)))
    #expect(
      output == [
        "received action: Action.increment",
        "received action: Action.child(.tapped)",
      ]
    )
  }

  @Test func nilPrinterPrintsNothing() {
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges(nil)
    }
    store.send(.increment)
    #expect(store.count == 1)
  }
}
