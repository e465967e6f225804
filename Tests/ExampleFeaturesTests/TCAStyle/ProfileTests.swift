// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ComposableArchitecture
import Foundation
import Testing

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

@MainActor
@Suite struct ProfileTests {
  struct SaveFailed: Error {}

  @Test func aViewActionsBindingIsWrittenAndASaveAnswersWithAResult() async {
    let store = TestStore(initialState: Profile.State(name: "Blob")) {
      Profile()
    } withDependencies: {
      $0.profileClient.save = { name in name.uppercased() }
    }
    await store.send(.view(.editButtonTapped)) {
      $0.editMode = .active
    }
    // Sent back with an animation, which changes the state at once here.
    await store.receive(\.view.binding)
    await store.send(.view(.binding(.set(\.name, "Blob Jr.")))) {
      $0.name = "Blob Jr."
    }
    await store.send(.view(.saveButtonTapped)) {
      $0.isSaving = true
    }
    await store.receive(\.saveResponse.success, "BLOB JR.") {
      $0.editMode = .inactive
      $0.isSaving = false
      $0.name = "BLOB JR."
      $0.title = "Profile of BLOB JR."
    }
  }

  @Test func aFailedSaveShowsAnAlertWhoseButtonTriesAgain() async {
    let attempts = LockIsolated(0)
    let store = TestStore(initialState: Profile.State(name: "Blob")) {
      Profile()
    } withDependencies: {
      $0.profileClient.save = { name in
        try attempts.withValue {
          $0 += 1
          if $0 == 1 { throw SaveFailed() }
        }
        return name
      }
    }
    await store.send(.view(.saveButtonTapped)) {
      $0.isSaving = true
    }
    await store.receive(\.saveResponse.failure) {
      $0.isSaving = false
      $0.alert = .couldNotSave
    }
    await store.send(\.alert.tryAgainButtonTapped) {
      $0.alert = nil
      $0.isSaving = true
    }
    await store.receive(\.saveResponse.success, "Blob") {
      $0.isSaving = false
      $0.title = "Profile of Blob"
    }
  }

  @Test func anUnimplementedClientFailsTheTest() async {
    let store = TestStore(initialState: Profile.State(name: "Blob")) { Profile() }
    await withKnownIssue {
      await store.send(.view(.saveButtonTapped)) {
        $0.isSaving = true
      }
      await store.receive(\.saveResponse.failure) {
        $0.isSaving = false
        $0.alert = .couldNotSave
      }
    } matching: { issue in
      issue.description.contains("ProfileClient.save")
    }
  }

  @Test func theViewValuesAreRecordedAsPlainData() throws {
    var state = Profile.State(name: "Blob")
    state.editMode = .transient
    state.title = "Profile of \("Blob")"
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(
      json
        == #"{"alert":null,"editMode":"transient","isSaving":false,"name":"Blob","title":"Profile of Blob"}"#
    )
    #expect(try JSONDecoder().decode(Profile.State.self, from: Data(json.utf8)) == state)
    #expect(
      Animation.spring(duration: 0.3).delay(0.1).description
        == "spring(duration: 0.3, bounce: 0.0).delay(0.1)")
    #expect(TextState(LocalizedStringKey("Hello")) == TextState("Hello"))
  }
}

extension AlertState where Action == Profile.Action.Alert {
  /// What a failed save shows.
  fileprivate static var couldNotSave: Self {
    AlertState {
      TextState("Could not save")
    } actions: {
      ButtonState(role: .cancel) { TextState("Cancel") }
      ButtonState(action: .tryAgainButtonTapped) { TextState("Try again") }
    }
  }
}
