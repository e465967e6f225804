import ComposableArchitecture
import Foundation
import TestSupport
import Testing

/// A reducer that appends its name to a log in state, to observe the order reducers run in.
private struct Logger<State, Action>: Reducer {
  let name: String
  let log: WritableKeyPath<State, [String]>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state[keyPath: self.log].append(self.name)
    return .none
  }
}

private struct Child: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var log: [String] = []
  }
  @CasePathable
  enum Action: Equatable {
    case tap
  }
  var body: some ReducerOf<Self> {
    Logger(name: "child", log: \.log)
  }
}

private struct Parent: Reducer {
  struct State: Equatable {
    var child = Child.State()
    var optional: Child.State?
    var rows: IdentifiedArrayOf<Child.State> = []
    var log: [String] = []
  }
  @CasePathable
  enum Action: Equatable {
    case child(Child.Action)
    case optional(Child.Action)
    case rows(IdentifiedActionOf<Child>)
    case other
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) {
      Child()
    }
    Reduce { state, action in
      state.log.append("parent saw \(state.child.log.count) child runs")
      return .none
    }
    .ifLet(\.optional, action: \.optional) {
      Child()
    }
    .forEach(\.rows, action: \.rows) {
      Child()
    }
  }
}

@MainActor
@Suite struct ReducerCompositionTests {
  @Test func combineReducersRunsInOrder() {
    struct State { var log: [String] = [] }
    let reducer = CombineReducers {
      Logger<State, Void>(name: "a", log: \.log)
      Logger<State, Void>(name: "b", log: \.log)
      Logger<State, Void>(name: "c", log: \.log)
    }
    var state = State()
    _ = reducer.reduce(into: &state, action: ())
    #expect(state.log == ["a", "b", "c"])
  }

  @Test func builderConditionalsOptionalsAndArrays() {
    struct State { var log: [String] = [] }
    func make(flag: Bool, names: [String]) -> some Reducer<State, Void> {
      CombineReducers {
        if flag {
          Logger<State, Void>(name: "if", log: \.log)
        } else {
          Logger<State, Void>(name: "else", log: \.log)
        }
        if flag {
          Logger<State, Void>(name: "optional", log: \.log)
        }
        for name in names {
          Logger<State, Void>(name: name, log: \.log)
        }
      }
    }
    var state = State()
    _ = make(flag: true, names: ["x", "y"]).reduce(into: &state, action: ())
    #expect(state.log == ["if", "optional", "x", "y"])
    state = State()
    _ = make(flag: false, names: []).reduce(into: &state, action: ())
    #expect(state.log == ["else"])
  }

  @Test func scopeRunsChildOnlyForItsActionsBeforeLaterReducers() {
    var state = Parent.State()
    _ = Parent().reduce(into: &state, action: .child(.tap))
    #expect(state.child.log == ["child"])
    #expect(state.log == ["parent saw 1 child runs"])
    _ = Parent().reduce(into: &state, action: .other)
    #expect(state.child.log == ["child"])
    #expect(state.log == ["parent saw 1 child runs", "parent saw 1 child runs"])
  }

  @Test func ifLetRunsChildBeforeParentWhileStateIsPresent() {
    var state = Parent.State(optional: Child.State())
    _ = Parent().reduce(into: &state, action: .optional(.tap))
    #expect(state.optional?.log == ["child"])
    #expect(state.log.count == 1)
  }

  @Test func forEachRunsTheElementWithTheGivenID() {
    var state = Parent.State(rows: [Child.State(id: 1), Child.State(id: 2)])
    _ = Parent().reduce(into: &state, action: .rows(.element(id: 2, action: .tap)))
    #expect(state.rows[id: 1]?.log == [])
    #expect(state.rows[id: 2]?.log == ["child"])
  }

  @Test func ifCaseLetRunsChildOnlyInItsCase() {
    let reducer = Reduce<SessionState, SessionAction> { state, action in
      if case .logOut = action { state = .loggedOut }
      return .none
    }
    .ifCaseLet(\.loggedIn, action: \.loggedIn) {
      Child()
    }
    var state = SessionState.loggedIn(Child.State())
    _ = reducer.reduce(into: &state, action: .loggedIn(.tap))
    #expect(state == .loggedIn(Child.State(log: ["child"])))
    _ = reducer.reduce(into: &state, action: .logOut)
    #expect(state == .loggedOut)
  }

  @Test func scopeOnEnumStateEmbedsTheChangedCase() {
    let reducer = Scope(state: \SessionState.Cases.loggedIn, action: \SessionAction.Cases.loggedIn)
    {
      Child()
    }
    var state = SessionState.loggedIn(Child.State())
    _ = reducer.reduce(into: &state, action: .loggedIn(.tap))
    #expect(state == .loggedIn(Child.State(log: ["child"])))
  }

  @Test func onChangeRunsOnlyWhenTheValueChanges() {
    struct State: Equatable {
      var value = 0
      var changes: [String] = []
    }
    let reducer = Reduce<State, Int> { state, action in
      state.value = action
      return .none
    }
    .onChange(of: \.value) { old, new in
      Reduce { state, _ in
        state.changes.append("\(old)→\(new)")
        return .none
      }
    }
    var state = State()
    for value in [0, 1, 1, 3] {
      _ = reducer.reduce(into: &state, action: value)
    }
    #expect(state.changes == ["0→1", "1→3"])
  }

  @Test func onChangeReturningAnEffectSeesTheOldValueAndChangesTheState() async {
    struct State: Equatable {
      var value = 0
      var changes: [String] = []
    }
    let effects = LockIsolated(0)
    let store = TestStore(initialState: State()) {
      Reduce<State, Int> { state, action in
        state.value = action
        return .none
      }
      .onChange(of: \.value) { old, state in
        state.changes.append("\(old)→\(state.value)")
        return .run { _ in effects.withValue { $0 += 1 } }
      }
    }
    await store.send(1) {
      $0.value = 1
      $0.changes = ["0→1"]
    }
    await store.send(1)
    await store.send(3) {
      $0.value = 3
      $0.changes = ["0→1", "1→3"]
    }
    await store.finish()
    #expect(effects.value == 2)
  }

  @Test func dependencyModifierOverridesForTheReducer() {
    struct Feature: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: Void) -> Effect<Void> {
        state.append(self.uuid())
        return .none
      }
    }
    var state: [UUID] = []
    let reducer = Feature().dependency(\.uuid, .incrementing)
    _ = reducer.reduce(into: &state, action: ())
    _ = reducer.reduce(into: &state, action: ())
    #expect(state == [UUID(0), UUID(1)])
  }
}

@CasePathable
private enum SessionState: Equatable {
  case loggedIn(Child.State)
  case loggedOut
}

@CasePathable
private enum SessionAction: Equatable {
  case loggedIn(Child.Action)
  case logOut
}
