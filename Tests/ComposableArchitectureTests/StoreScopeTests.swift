@_spi(Internals) import ComposableArchitecture
import Foundation
import TestSupport
import Testing

/// Scoping a store as TCA's own store tests (`StoreTests`, `StoreLifetimeTests`,
/// `ScopeCacheTests`) state it.
@MainActor
@Suite struct StoreScopeTests {
  @Reducer
  struct Row {
    @ObservableState
    struct State: Equatable, Identifiable {
      let id: Int
      var count = 0
    }
    enum Action: Equatable { case tap }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  @Reducer
  struct Parent {
    @ObservableState
    struct State: Equatable {
      var row = Row.State(id: 0)
      @Presents var child: Row.State?
      var rows: IdentifiedArrayOf<Row.State> = []
    }
    enum Action {
      case row(Row.Action)
      case child(PresentationAction<Row.Action>)
      case rows(IdentifiedActionOf<Row>)
      case show
      case dismiss
    }
    var body: some ReducerOf<Self> {
      Scope(\.row, action: \.row) { Row() }
      Reduce { state, action in
        switch action {
        case .show:
          state.child = Row.State(id: 1)
        case .dismiss:
          state.child = nil
        default:
          break
        }
        return .none
      }
      .ifLet(\.$child, action: \.child) { Row() }
      .forEach(\.rows, action: \.rows) { Row() }
    }
  }

  @Test func aKeyPathScopeGivesTheSameStoreWhileItIsInUse() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let row = store.scope(\.row, action: \.row)
    #expect(row === store.scope(\.row, action: \.row))
    #expect(row === store.scope(state: \.row, action: \.row))
    row.send(.tap)
    #expect(store.state.row.count == 1)
  }

  @available(*, deprecated)
  @Test func aScopeByFunctionsIsNeverCachedNorCachesItsChildren() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let byFunctions = store.scope(state: { $0 }, action: { $0 })
    #expect(byFunctions !== store.scope(state: { $0 }, action: { $0 }))
    let row = byFunctions.scope(\.row, action: \.row)
    #expect(row !== byFunctions.scope(\.row, action: \.row))
    row.send(.tap)
    #expect(store.state.row.count == 1)
    #expect(byFunctions.withState(\.row.count) == 1)
  }

  @available(*, deprecated)
  @Test func aScopeByFunctionsRunsItsFunctionOnlyWhenItsStateIsRead() {
    var calls = 0
    let store = Store<Int, Void>(initialState: 0) {
      Reduce { state, _ in
        state += 1
        return .none
      }
    }
    let child = store.scope(
      state: { (count: Int) -> Int in
        calls += 1
        return count
      },
      action: { $0 })
    child.send(())
    child.send(())
    #expect(calls == 0)
    #expect(child.withState { $0 } == 2)
    #expect(calls == 1)
  }

  @Test func anOptionalScopeIsNilWhileTheStateIsAndKeepsTheLastValueAfter() throws {
    let store = Store(initialState: Parent.State()) { Parent() }
    #expect(store.scope(\.child, action: \.child.presented) == nil)
    store.send(.show)
    let optionalChild: Store<Row.State, Row.Action>? = store.scope(
      \.child, action: \.child.presented)
    let child = try #require(optionalChild)
    child.send(.tap)
    #expect(child.state.count == 1)
    #expect(store.state.child?.count == 1)
    store.send(.dismiss)
    #expect(store.scope(\.child, action: \.child.presented) == nil)
    // NB: A view still holding the child reads what it last showed.
    #expect(child.state == Row.State(id: 1, count: 1))
  }

  @Test func anIdentifiedCollectionScopesAStorePerElementByItsID() {
    let store = Store(
      initialState: Parent.State(rows: [Row.State(id: 7), Row.State(id: 8)])
    ) { Parent() }
    let rows = Array(store.scope(\.rows, action: \.rows))
    #expect(rows.map(\.state.id) == [7, 8])
    rows[1].send(.tap)
    #expect(store.state.rows[id: 8]?.count == 1)
    #expect(store.state.rows[id: 7]?.count == 0)
    #expect(rows[1] === Array(store.scope(\.rows, action: \.rows))[1])
  }

  @available(*, deprecated)
  @Test func anOptionalOrCollectionScopeFromAStoreScopedByFunctionsIsReported() {
    let store = Store(initialState: Parent.State(child: Row.State(id: 1))) { Parent() }
    let byFunctions = store.scope(state: { $0 }, action: { $0 })
    withKnownIssue {
      let _: Store<Row.State, Row.Action>? = byFunctions.scope(\.child, action: \.child.presented)
    } matching: { issue in
      issue.description.contains(
        "Scoping from uncached 'StoreOf<StoreScopeTests.Parent>' is not compatible with observation."
      )
    }
    withKnownIssue {
      _ = Array(byFunctions.scope(\.rows, action: \.rows))
    } matching: { issue in
      issue.description.contains("Scoping from uncached")
    }
    // NB: From a store scoped by key paths, nothing is said.
    let _: Store<Row.State, Row.Action>? = store.scope(\.child, action: \.child.presented)
    _ = Array(store.scope(\.rows, action: \.rows))
  }

  @available(*, deprecated)
  @Test func ifLetUnwrapsEachTimeTheStateAppearsAndSaysWhenItGoes() {
    let store = Store(initialState: Parent.State()) { Parent() }
    var events: [String] = []
    var unwrapped: Store<Row.State, Row.Action>?
    let observation = store.scope(
      state: { $0.child }, action: { Parent.Action.child(.presented($0)) }
    )
    .ifLet { child in
      events.append("then \(child.withState(\.id))")
      unwrapped = child
    } else: {
      events.append("else")
    }
    #expect(events == ["else"])
    store.send(.show)
    #expect(events == ["else", "then 1"])
    unwrapped?.send(.tap)
    #expect(store.state.child?.count == 1)
    store.send(.child(.presented(.tap)))
    #expect(events == ["else", "then 1"])
    store.send(.dismiss)
    #expect(events == ["else", "then 1", "else"])
    observation.cancel()
    store.send(.show)
    #expect(events == ["else", "then 1", "else"])
  }

  @Test func effectCancellablesCountTheRootsEffectsInFlight() async {
    let gate = AsyncStream<Void>.makeStream()
    let store = Store<Int, Bool>(initialState: 0) {
      Reduce { _, wait in
        wait ? .run { _ in for await _ in gate.stream { break } } : .none
      }
    }
    let child = store.scope(\.self, action: \.self)
    #expect(store.effectCancellables.isEmpty)
    store.send(false)
    #expect(store.effectCancellables.isEmpty)
    let task: Task<Void, Never>? = child.send(true)
    #expect(store.effectCancellables.count == 1)
    #expect(child.effectCancellables.count == 1)
    gate.continuation.yield()
    await task?.value
    #expect(store.effectCancellables.isEmpty)
  }

  @Test func aStoreThatGoesCancelsItsEffectsAndTheyNoLongerCountAsCancellable() async {
    enum CancelID: Hashable { case forever }
    let ended = LockIsolated(false)
    func isRegistered() -> Bool {
      _cancellationCancellables.withValue {
        $0.exists(at: CancelID.forever, path: NavigationIDPath())
      }
    }
    do {
      let store = Store<Int, Void>(initialState: 0) {
        Reduce { _, _ in
          .run { _ in
            do { try await Task.never() } catch { ended.setValue(true) }
          }
          .cancellable(id: CancelID.forever)
        }
      }
      store.send(())
      #expect(isRegistered())
    }
    #expect(!isRegistered())
    #expect(await eventually { ended.value })
  }

  @Test func aScopedStoreNoLongerInUseStopsObservingItsRoot() {
    let store = Store(initialState: Parent.State(rows: [Row.State(id: 1)])) { Parent() }
    weak var weakRow: Store<Row.State, Row.Action>?
    do {
      let rows = Array(store.scope(\.rows, action: \.rows))
      weakRow = rows[0]
      rows[0].send(.tap)
    }
    #expect(weakRow == nil)
    store.send(.rows(.element(id: 1, action: .tap)))
    #expect(store.state.rows[id: 1]?.count == 2)
  }
}

/// A store's field written as a SwiftUI binding writes it: by a binding action.
@MainActor
@Suite struct StoreBindingWriteTests {
  @ObservableState
  struct Form: Equatable {
    var name = ""
  }
  enum FormAction: BindableAction {
    case binding(BindingAction<Form>)
  }

  @Test func writingAFieldSendsABindingActionThatTheBindingReducerApplies() {
    let store = Store<Form, FormAction>(initialState: Form()) { BindingReducer() }
    store.name = "Blob"
    #expect(store.state.name == "Blob")
  }

  @Test func aWriteNoBindingReducerAppliesIsReported() {
    let store = Store<Form, FormAction>(initialState: Form()) {}
    withKnownIssue {
      store.name = "Blob"
    } matching: { issue in
      issue.description.contains("A binding action sent from a store was not handled.")
        && issue.description.contains("FormAction.binding(.set(_, \"Blob\"))")
        && issue.description.contains(#"invoke "BindingReducer()""#)
    }
    #expect(store.state.name == "")
  }
}
