import ComposableArchitecture
import Testing

/// `@BindingState`, TCA's bindable field before `@ObservableState`: binding actions name it by
/// its projection, `\.$name`.
@MainActor
@Suite struct BindingStateTests {
  @Reducer
  struct Form {
    struct State: Equatable {
      @BindingState var name = ""
      var edits = 0
    }
    enum Action: BindableAction, Equatable {
      case binding(BindingAction<State>)
    }
    var body: some ReducerOf<Self> {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .binding(.set(\.$name, "reset")):
          state.name = ""
        case .binding(\.$name):
          state.edits += 1
        case .binding:
          break
        }
        return .none
      }
    }
  }

  @CasePathable
  enum FormAction {
    case binding(BindingAction<Form.State>)
  }

  @Test func aBindingActionWritesTheFieldAndMatchesItsProjection() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    await store.send(.binding(.set(\.$name, "Blob"))) {
      $0.name = "Blob"
      $0.edits = 1
    }
    await store.send(.binding(.set(\.$name, "reset"))) {
      $0.name = ""
    }
  }

  @Test func actionsCompareByFieldAndValueAndExtractThroughTheProjection() {
    #expect(BindingAction<Form.State>.set(\.$name, "a") == .set(\.$name, "a"))
    #expect(BindingAction<Form.State>.set(\.$name, "a") != .set(\.$name, "b"))
    let action = FormAction.binding(.set(\.$name, "Blob"))
    let name: String? = action[case: \.binding.$name]
    #expect(name == "Blob")
    let other: String? = FormAction.binding(.set(\.edits, 2))[case: \.binding.$name]
    #expect(other == nil)
  }
}
