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

  @Test func aSharedValueChangedByTheActionIsDiffedFromItsValueBefore() {
    struct Counter {
      @Shared var count: Int
      var name = "counter"
    }
    var output: [String] = []
    let printer = _ReducerPrinter<Counter, Int>(printChange: { _, old, new in
      output.append(CustomDump.diff(old, new) ?? "(No state changes)")
    })
    let store = Store(initialState: Counter(count: Shared(value: 0))) {
      Reduce<Counter, Int> { state, delta in
        state.$count.withLock { $0 += delta }
        return .none
      }
      ._printChanges(printer)
    }
    store.send(1)
    store.send(0)
    #expect(
      output == [
        """
          PrintChangesTests.Counter(
        -   _count: 0,
        +   _count: 1,
            name: "counter"
          )
        """,
        "(No state changes)",
      ]
    )
    // The built-in printer says the same.
    output = []
    let builtIn = Store(initialState: Counter(count: Shared(value: 5))) {
      Reduce<Counter, Int> { state, delta in
        state.$count.withLock { $0 += delta }
        return .none
      }
      ._printChanges(.customDump { output.append($0) })
    }
    builtIn.send(2)
    #expect(
      output == [
        """
        received action:
          2
          PrintChangesTests.Counter(
        -   _count: 5,
        +   _count: 7,
            name: "counter"
          )
        """
      ]
    )
  }

  @Test func aSharedValueAndAPartOfItAreEachShownWithTheirOwnValue() {
    struct Settings: Equatable {
      var theme = "light"
      var size = 12
    }
    struct Screen {
      @Shared var settings: Settings
      @Shared var theme: String
    }
    @Shared(value: Settings()) var settings
    let screen = Screen(settings: $settings, theme: $settings.theme)
    // NB: Two views of one storage: each is dumped with its value, not as a repeat of the other.
    #expect(
      String(customDumping: screen) == """
        PrintChangesTests.Screen(
          _settings: PrintChangesTests.Settings(
            theme: "light",
            size: 12
          ),
          _theme: "light"
        )
        """)
    var output: [String] = []
    let store = Store(initialState: screen) {
      Reduce<Screen, String> { state, theme in
        state.$theme.withLock { $0 = theme }
        return .none
      }
      ._printChanges(_ReducerPrinter { _, old, new in output.append(diff(old, new) ?? "none") })
    }
    store.send("dark")
    #expect(
      output == [
        """
          PrintChangesTests.Screen(
            _settings: PrintChangesTests.Settings(
        -     theme: "light",
        +     theme: "dark",
              size: 12
            ),
        -   _theme: "light"
        +   _theme: "dark"
          )
        """
      ])
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
