import ComposableArchitecture
import Foundation
import Testing

/// Navigation state as TCA's own tests use it: a feature that presents itself, case subscripts on
/// a presentation and a stack, the stack's identities, `onChange` with its own notion of a
/// change, and a binding action made by `set`.
@MainActor
@Suite struct NavigationParityTests {
  @Reducer
  struct Nested {
    struct State: Equatable {
      var depth = 0
      @Presents var child: State?
    }
    enum Action: Equatable {
      // NB: Not `indirect`: a presentation's action is, as in TCA.
      case child(PresentationAction<Action>)
      case push
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        guard case .push = action else { return .none }
        state.child = State(depth: state.depth + 1)
        return .none
      }
      .ifLet(\.$child, action: \.child) { Nested() }
    }
  }

  @Test func aFeatureCanPresentItself() async {
    let store = TestStore(initialState: Nested.State()) { Nested() }
    await store.send(.push) { $0.child = Nested.State(depth: 1) }
    await store.send(.child(.presented(.push))) {
      $0.child?.child = Nested.State(depth: 2)
    }
  }

  @Test func aPresentationCopiedIsNotChangedByTheCopy() {
    var original = Nested.State()
    original.child = Nested.State(depth: 1)
    var copy = original
    copy.child?.depth = 5
    #expect(original.child?.depth == 1)
    #expect(copy.child?.depth == 5)
    #expect(original != copy)
    copy.child?.depth = 1
    #expect(original == copy)
  }

  @CasePathable
  enum Screen: Equatable {
    case int(Int)
    case text(String)
  }

  @Test func aPresentationsCaseCanBeReadAndWritten() {
    var presented = PresentationState<Screen>(wrappedValue: .int(42))
    presented[case: \.int]? += 1
    #expect(presented.wrappedValue == .int(43))
    withKnownIssue {
      presented[case: /Screen.text] = "ignored: another case"
    } matching: { issue in
      issue.description.hasSuffix(#"Can't modify unrelated case "int""#)
    }
    #expect(presented.wrappedValue == .int(43))
    presented[case: /Screen.int] = nil
    #expect(presented.wrappedValue == nil)
  }

  @Test func aStacksCaseCanBeReadWrittenAndPopped() {
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      var stack = StackState<Screen>([.int(42), .text("a")])
      stack[id: 0, case: /Screen.int]? += 1
      #expect(stack[id: 0] == .int(43))
      withKnownIssue {
        stack[id: 1, case: \.int] = nil
      } matching: { issue in
        issue.description.hasSuffix(#"Can't modify unrelated case "text""#)
      }
      #expect(stack.count == 2)
      stack[id: 0, case: \.int] = nil
      #expect(Array(stack) == [.text("a")])
    }
  }

  @Test func theStacksIdentitiesCanBePeekedAtAndTaken() {
    let generator = StackElementIDGenerator.incrementing()
    #expect(generator.peek() == 0)
    #expect(generator.next() == 0)
    #expect(generator.peek() == 1)
    #expect(generator() == 1)
  }

  @Reducer
  struct Rows {
    struct State: Equatable {
      var rows: [Int] = []
      var changes = 0
    }
    enum Action: Equatable { case append, bumpLast }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .append: state.rows.append(0)
        case .bumpLast: state.rows[state.rows.count - 1] += 1
        }
        return .none
      }
      .onChange(of: \.rows, removeDuplicates: { $0.count == $1.count }) { _, _ in
        Reduce { state, _ in
          state.changes += 1
          return .none
        }
      }
    }
  }

  @Test func onChangeRunsWhenItsOwnComparisonSeesAChange() async {
    let store = TestStore(initialState: Rows.State()) { Rows() }
    await store.send(.append) {
      $0.rows = [0]
      $0.changes = 1
    }
    await store.send(.bumpLast) { $0.rows = [1] }
  }

  @Reducer
  struct Toggle {
    @ObservableState
    struct State: Equatable { var isOn = false }
    enum Action: BindableAction, Equatable {
      case binding(BindingAction<State>)
      case turnOn
    }
    var body: some ReducerOf<Self> {
      BindingReducer()
      Reduce { _, action in
        action == .turnOn ? .send(.set(\.isOn, true)) : .none
      }
    }
  }

  @Test func setMakesABindingAction() async {
    let store = TestStore(initialState: Toggle.State()) { Toggle() }
    await store.send(.turnOn)
    await store.receive(\.binding.isOn) { $0.isOn = true }
  }
}

/// Dependency writers chained on one reducer are one reducer, as TCA's tests check, and the
/// value written closest to the reducer wins, as when they nest.
@MainActor
@Suite struct DependencyWritingFusionTests {
  @Reducer
  struct Stamp {
    struct State: Equatable { var value = "" }
    enum Action { case tap }
    @Dependency(\.uuid) var uuid
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.value = self.uuid().uuidString
        return .none
      }
    }
  }

  @Test func chainedWritersAreOneReducer() async {
    // NB: The annotation is the check that they fuse: without it, this does not compile.
    let reducer: _DependencyKeyWritingReducer<Stamp> = Stamp()
      .dependency(\.uuid, .constant(UUID(0)))
      .dependency(\.uuid, .constant(UUID(1)))
      .transformDependency(\.uuid) { $0 = .constant(UUID(2)) }
    let store = TestStore(initialState: Stamp.State()) { reducer }
    await store.send(.tap) { $0.value = UUID(0).uuidString }
  }

  @Test func theWriterClosestToTheReducerWins() async {
    let store = TestStore(initialState: Stamp.State()) {
      Stamp()
        .dependency(\.uuid, .constant(UUID(0)))
        .dependency(\.uuid, .constant(UUID(1)))
    }
    await store.send(.tap) { $0.value = UUID(0).uuidString }
  }
}

/// A stack edited as any collection, as TCA's tests edit one: screens inserted get identities of
/// their own, and removing several pops them.
@Suite struct StackStateCollectionTests {
  @Test func editsKeepEachScreensIdentity() {
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      var stack: StackState<String> = ["a", "b", "c", "d"]
      stack.removeLast(2)
      #expect(Array(stack) == ["a", "b"])
      #expect(stack.ids.map(\.generation) == [0, 1])
      stack.insert("z", at: 1)
      #expect(Array(stack) == ["a", "z", "b"])
      #expect(stack.ids.map(\.generation) == [0, 4, 1])
      #expect(stack[id: 4] == "z")
      stack[1] = "y"
      #expect(stack[id: 4] == "y")
    }
  }
}

/// A test asserting a push by appending to the stack, as TCA's tests do: the screen it appends
/// gets the identity the action's push took, whatever identities the test gave before.
@MainActor
@Suite struct StackAssertionIdentityTests {
  @Reducer
  struct Pusher {
    struct State: Equatable { var path = StackState<Int>() }
    enum Action { case push }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.path.append(state.path.count)
        return .none
      }
    }
  }

  @Test func anAppendInTheAssertionTakesTheIdentityThePushTook() async {
    // NB: An identity the test gave before the store is the test's: the store's pushes come
    // after it, and the assertion's appends take the same ones.
    var elsewhere = StackState<Int>()
    elsewhere.append(0)
    #expect(elsewhere.ids == [0])
    let store = TestStore(initialState: Pusher.State()) { Pusher() }
    await store.send(.push) { $0.path.append(0) }
    await store.send(.push) { $0.path.append(1) }
    #expect(store.state.path.ids.map(\.generation) == [1, 2])
  }
}
