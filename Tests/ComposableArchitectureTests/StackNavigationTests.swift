// A navigation stack of detail screens whose form is edited through bindings, written as TCA's
// documentation writes one, with only `import ComposableArchitecture`.
import ComposableArchitecture
import Foundation
import TestSupport
import Testing

struct Contact: Codable, Equatable, Identifiable, Sendable {
  var id: UUID
  var name: String
}

@Reducer
struct ContactDetail {
  @ObservableState
  struct State: Codable, Equatable {
    var id: Contact.ID
    var name: String
    var secondsOnScreen = 0
  }

  enum Action: BindableAction, Codable, Equatable {
    case binding(BindingAction<State>)
    case delegate(Delegate)
    case onAppear
    case saveButtonTapped
    case tick
    @CasePathable
    enum Delegate: Codable, Equatable {
      case saved(Contact)
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none
      case .onAppear:
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
      case .saveButtonTapped:
        return .run { [contact = Contact(id: state.id, name: state.name)] send in
          await send(.delegate(.saved(contact)))
          await self.dismiss()
        }
      case .tick:
        state.secondsOnScreen += 1
        return .none
      }
    }
  }
}

@Reducer
struct ContactsStack {
  @Reducer(state: .codable, .equatable, action: .codable, .equatable)
  enum Path {
    case detail(ContactDetail)
  }

  @ObservableState
  struct State: Codable, Equatable {
    var contacts: IdentifiedArrayOf<Contact> = []
    var path = StackState<Path.State>()
  }

  enum Action: Codable, Equatable {
    case contactTapped(id: Contact.ID)
    case path(StackActionOf<Path>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .contactTapped(id):
        guard let contact = state.contacts[id: id] else { return .none }
        state.path.append(.detail(ContactDetail.State(id: contact.id, name: contact.name)))
        return .none
      case let .path(.element(_, .detail(.delegate(.saved(contact))))):
        state.contacts[id: contact.id] = contact
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

@MainActor
@Suite struct StackNavigationTests {
  let blob = Contact(id: UUID(1), name: "Blob")

  @Test func aScreenIsPushedEditedThroughBindingsAndPopsItself() async {
    let store = TestStore(initialState: ContactsStack.State(contacts: [self.blob])) {
      ContactsStack()
    }
    await store.send(.contactTapped(id: self.blob.id)) {
      $0.path[id: 0] = .detail(ContactDetail.State(id: self.blob.id, name: "Blob"))
    }
    await store.send(\.path[id: 0].detail.binding.name, "Blob Jr.") {
      $0.path[id: 0, case: \.detail]?.name = "Blob Jr."
    }
    await store.send(\.path[id: 0].detail.saveButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.saved) {
      $0.contacts[id: self.blob.id]?.name = "Blob Jr."
    }
    await store.receive(\.path.popFrom, 0) {
      $0.path = StackState()
    }
  }

  @Test func pushAndPopByActionAndAPoppedScreensEffectsEnd() async {
    let clock = TestClock()
    let store = TestStore(initialState: ContactsStack.State(contacts: [self.blob])) {
      ContactsStack()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let detail = ContactsStack.Path.State.detail(
      ContactDetail.State(id: self.blob.id, name: "Blob"))
    await store.send(.path(.push(id: 0, state: detail))) {
      $0.path[id: 0] = detail
    }
    await store.send(\.path[id: 0].detail.onAppear)
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].detail.tick) {
      $0.path[id: 0, case: \.detail]?.secondsOnScreen = 1
    }
    await store.send(\.path.popFrom, 0) {
      $0.path = StackState()
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func anActionForAScreenNotInTheStackIsReported() async {
    let store = TestStore(initialState: ContactsStack.State()) { ContactsStack() }
    await withKnownIssue {
      await store.send(\.path[id: 3].detail.saveButtonTapped)
    } matching: { issue in
      issue.description.contains("received an action for a missing element.")
        && issue.description.contains("ContactsStack.Path.Action.detail(.saveButtonTapped)")
    }
  }

  @Test func aStackIsRecordedWithItsIdentities() throws {
    var state = ContactsStack.State()
    state.path[id: 4] = .detail(ContactDetail.State(id: UUID(1), name: "Blob"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(
      json == """
        {"contacts":[],"path":[{"element":{"detail":{"_0":{"id":"00000000-0000-0000-0000-000000000001",\
        "name":"Blob","secondsOnScreen":0}}},"id":4}]}
        """)
    #expect(try JSONDecoder().decode(ContactsStack.State.self, from: Data(json.utf8)) == state)
    let action = ContactsStack.Action.path(
      .element(id: 4, action: .detail(.binding(.set(\.name, "B")))))
    let actionJSON = String(decoding: try encoder.encode(action), as: UTF8.self)
    #expect(
      actionJSON
        == #"{"path":{"_0":{"element":{"action":{"detail":{"_0":{"binding":{"_0":{"name":"name","value":"B"}}}}},"id":4}}}}"#
    )
    #expect(
      try JSONDecoder().decode(ContactsStack.Action.self, from: Data(actionJSON.utf8)) == action)
  }

  @Test func aStackDumpsEachScreenWithItsIdentity() {
    var stack = StackState<Int>()
    stack[id: 0] = 7
    stack[id: 3] = 9
    #expect(
      String(customDumping: stack) == """
        [
          #0: 7,
          #3: 9
        ]
        """)
  }
}
