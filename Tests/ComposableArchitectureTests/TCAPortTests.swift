// This file is written as a TCA 1.x user writes a feature without the `@Reducer` macro. With
// `import ComposableArchitecture` pointing at TCA it compiles there too: porting it here changed
// nothing but the package the import resolves to.
import ComposableArchitecture
import Foundation
import Testing

struct ContactsFeature: Reducer {
  struct State: Equatable {
    var contacts: IdentifiedArrayOf<ContactRow.State> = []
    var profile = Profile.State()
    var isSaving = false
  }

  @CasePathable
  enum Action: Equatable {
    case addButtonTapped
    case contacts(IdentifiedActionOf<ContactRow>)
    case profile(Profile.Action)
    case saved
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Scope(state: \.profile, action: \.profile) {
      Profile()
    }
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.contacts.append(ContactRow.State(id: self.uuid(), name: "New contact"))
        state.isSaving = true
        return .run { send in
          try await self.clock.sleep(for: .milliseconds(10))
          await send(.saved)
        }
      case let .contacts(.element(id, .deleteButtonTapped)):
        state.contacts.remove(id: id)
        return .none
      case .contacts, .profile:
        return .none
      case .saved:
        state.isSaving = false
        return .none
      }
    }
    .forEach(\.contacts, action: \.contacts) {
      ContactRow()
    }
  }
}

struct ContactRow: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var name: String
    var isStarred = false
  }

  @CasePathable
  enum Action: Equatable {
    case deleteButtonTapped
    case starButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .deleteButtonTapped:
      return .none
    case .starButtonTapped:
      state.isStarred.toggle()
      return .none
    }
  }
}

struct Profile: Reducer {
  struct State: Equatable {
    var name = ""
  }

  @CasePathable
  enum Action: Equatable {
    case nameChanged(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .nameChanged(name):
        state.name = name
        return .none
      }
    }
  }
}

@MainActor
@Suite struct TCAPortTests {
  @Test func portedFeatureRunsAsInTCA() async {
    let store = TestStore(initialState: ContactsFeature.State()) {
      ContactsFeature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.profile(.nameChanged("Blob"))) {
      $0.profile.name = "Blob"
    }
    await store.send(.addButtonTapped) {
      $0.contacts = [ContactRow.State(id: UUID(0), name: "New contact")]
      $0.isSaving = true
    }
    await store.receive(\.saved) {
      $0.isSaving = false
    }
    await store.send(.contacts(.element(id: UUID(0), action: .starButtonTapped))) {
      $0.contacts[id: UUID(0)]?.isStarred = true
    }
    await store.send(.contacts(.element(id: UUID(0), action: .deleteButtonTapped))) {
      $0.contacts = []
    }
  }
}
