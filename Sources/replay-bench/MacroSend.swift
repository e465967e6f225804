import ComposableArchitecture
import Foundation

// Store.send on one feature written twice: with `@Reducer` and `@ObservableState`, and by hand
// (`Reducer` conformance, a plain state, `@CasePathable` on the actions), to show that the macros
// cost nothing at run time.

/// The feature with the macros.
@Reducer
struct MacroBoard {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var rows: IdentifiedArrayOf<MacroRow.State> = []
    @Presents var editor: MacroRow.State?
  }

  enum Action {
    case addTapped
    case editTapped(Int)
    case editor(PresentationAction<MacroRow.Action>)
    case rows(IdentifiedActionOf<MacroRow>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.count += 1
        state.rows.append(MacroRow.State(id: state.count))
        return .none
      case let .editTapped(id):
        state.editor = state.rows[id: id]
        return .none
      case .editor(.presented(.binding)):
        if let editor = state.editor { state.rows[id: editor.id] = editor }
        return .none
      case .editor, .rows:
        return .none
      }
    }
    .ifLet(\.$editor, action: \.editor) { MacroRow() }
    .forEach(\.rows, action: \.rows) { MacroRow() }
  }
}

@Reducer
struct MacroRow {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: Int
    var title = ""
    var isDone = false
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case toggled
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .toggled = action { state.isDone.toggle() }
      return .none
    }
  }
}

/// The same feature without the macros.
struct PlainBoard: Reducer {
  struct State: Equatable {
    var count = 0
    var rows: IdentifiedArrayOf<PlainRow.State> = []
    @PresentationState var editor: PlainRow.State?
  }

  @CasePathable
  enum Action {
    case addTapped
    case editTapped(Int)
    case editor(PresentationAction<PlainRow.Action>)
    case rows(IdentifiedActionOf<PlainRow>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.count += 1
        state.rows.append(PlainRow.State(id: state.count))
        return .none
      case let .editTapped(id):
        state.editor = state.rows[id: id]
        return .none
      case .editor(.presented(.binding)):
        if let editor = state.editor { state.rows[id: editor.id] = editor }
        return .none
      case .editor, .rows:
        return .none
      }
    }
    .ifLet(\.$editor, action: \.editor) { PlainRow() }
    .forEach(\.rows, action: \.rows) { PlainRow() }
  }
}

struct PlainRow: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var title = ""
    var isDone = false
  }

  @CasePathable
  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case toggled
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .toggled = action { state.isDone.toggle() }
      return .none
    }
  }
}

extension ReplayBench {
  @MainActor
  static func macroSend(sends: Int, rounds: Int) {
    let block = 1_000
    print(
      "Store.send on a feature written with @Reducer and @ObservableState, against the same"
        + " feature written by hand (\(sends) actions per round, in blocks of \(block) sent to"
        + " each store in turn; median of \(rounds) rounds, and of each round's ratio)"
    )
    /// The script, as each feature spells it: rows added, toggled, edited through bindings.
    func script<A>(
      add: A, toggle: (Int) -> A, edit: (Int) -> A, type: (String) -> A, dismiss: A
    ) -> [A] {
      var actions: [A] = []
      var rows = 0
      while actions.count < sends {
        if rows < 50 {
          actions.append(add)
          rows += 1
          continue
        }
        let id = actions.count % rows + 1
        // NB: In this order, so that the editor is presented while it is typed in.
        switch (actions.count - rows) % 4 {
        case 0: actions.append(toggle(id))
        case 1: actions.append(edit(id))
        case 2: actions.append(type("row \(actions.count)"))
        default: actions.append(dismiss)
        }
      }
      return actions
    }
    let macroScript: [MacroBoard.Action] = script(
      add: .addTapped, toggle: { .rows(.element(id: $0, action: .toggled)) },
      edit: { .editTapped($0) },
      type: { .editor(.presented(.binding(.set(\.title, $0)))) }, dismiss: .editor(.dismiss)
    )
    let plainScript: [PlainBoard.Action] = script(
      add: .addTapped, toggle: { .rows(.element(id: $0, action: .toggled)) },
      edit: { .editTapped($0) },
      type: { .editor(.presented(.binding(.set(\.title, $0)))) }, dismiss: .editor(.dismiss)
    )
    var macroTimes: [Duration] = []
    var plainTimes: [Duration] = []
    var ratios: [Double] = []
    for round in 0..<rounds {
      let macro = Store(initialState: MacroBoard.State()) { MacroBoard() }
      let plain = Store(initialState: PlainBoard.State()) { PlainBoard() }
      var (macroTotal, plainTotal) = (Duration.zero, Duration.zero)
      for (index, start) in stride(from: 0, to: sends, by: block).enumerated() {
        let end = min(start + block, sends)
        // Alternate which goes first, so warm-up favours neither.
        for turn in 0..<2 {
          if (turn + index + round).isMultiple(of: 2) {
            let clock = ContinuousClock.now
            for action in macroScript[start..<end] { macro.send(action) }
            macroTotal += ContinuousClock.now - clock
          } else {
            let clock = ContinuousClock.now
            for action in plainScript[start..<end] { plain.send(action) }
            plainTotal += ContinuousClock.now - clock
          }
        }
      }
      precondition(macro.rows.map(\.isDone) == plain.rows.map(\.isDone))
      macroTimes.append(macroTotal)
      plainTimes.append(plainTotal)
      ratios.append(macroTotal / plainTotal)
    }
    self.row("without macros", median(plainTimes), per: sends)
    self.row("with @Reducer, @ObservableState", median(macroTimes), per: sends)
    let ratio = median(ratios)
    self.ratio(ratio, goal: "≈ 1.00× (noise)", met: ratio <= 1.05, note: rangeOfRounds(ratios))
    print()
  }
}
