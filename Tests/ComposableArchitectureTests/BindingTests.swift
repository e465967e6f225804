// A form edited through bindings, as TCA's documentation writes one, with only
// `import ComposableArchitecture`.
import ComposableArchitecture
import Foundation
import Testing

@Reducer
struct ProfileForm {
  @ObservableState
  struct State: Codable, Equatable {
    var displayName = ""
    var isPublic = false
    var nameWarning: String?
    var saveCount = 0
  }

  enum Action: BindableAction, Codable, Equatable {
    case binding(BindingAction<State>)
    case saveButtonTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.displayName) { oldValue, newValue in
        Reduce { state, _ in
          state.nameWarning = newValue.count > 10 ? "Too long" : nil
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .binding(\.isPublic):
        state.saveCount += 1
        return .none
      case .binding:
        return .none
      case .saveButtonTapped:
        state.saveCount += 1
        return .none
      }
    }
  }
}

@MainActor
@Suite struct BindingTests {
  @Test func bindingsWriteFieldsAndReducersReactToThem() async {
    let store = TestStore(initialState: ProfileForm.State()) { ProfileForm() }
    await store.send(\.binding.displayName, "Blob") {
      $0.displayName = "Blob"
    }
    await store.send(.binding(.set(\.displayName, "Blob Esquire Jr."))) {
      $0.displayName = "Blob Esquire Jr."
      $0.nameWarning = "Too long"
    }
    await store.send(\.binding.isPublic, true) {
      $0.isPublic = true
      $0.saveCount = 1
    }
  }

  @Test func aBindingIsEqualByFieldAndValue() {
    typealias Binding = BindingAction<ProfileForm.State>
    #expect(Binding.set(\.displayName, "a") == Binding.set(\.displayName, "a"))
    #expect(Binding.set(\.displayName, "a") != Binding.set(\.displayName, "b"))
    #expect(Binding.set(\.isPublic, true) != Binding.set(\.displayName, "a"))
    #expect(ProfileForm.Action.binding(.set(\.isPublic, true)).binding == .set(\.isPublic, true))
    #expect(ProfileForm.Action.saveButtonTapped.binding == nil)
  }

  @Test func aBindingIsRecordedByItsFieldsName() throws {
    let action = ProfileForm.Action.binding(.set(\.displayName, "Blob"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(action), as: UTF8.self)
    #expect(json == #"{"binding":{"_0":{"name":"displayName","value":"Blob"}}}"#)
    #expect(try JSONDecoder().decode(ProfileForm.Action.self, from: Data(json.utf8)) == action)
    let optional = ProfileForm.Action.binding(.set(\.nameWarning, nil))
    let decoded = try JSONDecoder().decode(
      ProfileForm.Action.self, from: try encoder.encode(optional))
    #expect(decoded == optional)
  }

  @Test func aBindingOfAFieldTheStateNoLongerHasSaysSo() throws {
    let json = #"{"binding":{"_0":{"name":"nickname","value":"Blob"}}}"#
    #expect {
      try JSONDecoder().decode(ProfileForm.Action.self, from: Data(json.utf8))
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.hasPrefix(
        "State has no field 'nickname' (it has displayName, isPublic, nameWarning, saveCount)")
    }
  }

  @Test func aBindingDumpsAsTheFieldItWrites() {
    #expect(
      String(customDumping: ProfileForm.Action.binding(.set(\.displayName, "Blob")))
        == #"ProfileForm.Action.binding(.set(\.displayName, "Blob"))"#)
  }
}
