// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ComposableArchitecture
import Foundation
import Testing

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

@MainActor
@Suite struct ContactsTests {
  let blob = Contact(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!, name: "Blob")

  @Test func aScreenIsPushedEditedThroughBindingsSavedAndPopped() async {
    let store = TestStore(initialState: Contacts.State(contacts: [self.blob])) {
      Contacts()
    }
    await store.send(.contactTapped(id: self.blob.id)) {
      $0.path[id: 0] = .detail(ContactDetail.State(contact: self.blob))
    }
    await store.send(\.path[id: 0].detail.binding.name, "Blob Jr.") {
      $0.path[id: 0, case: \.detail]?.name = "Blob Jr."
      $0.path[id: 0, case: \.detail]?.hasChanges = true
    }
    await store.send(\.path[id: 0].detail.binding.phone, "555-0100") {
      $0.path[id: 0, case: \.detail]?.phone = "555-0100"
    }
    await store.send(\.path[id: 0].detail.saveButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.saveContact) {
      $0.contacts[id: self.blob.id] = Contact(id: self.blob.id, name: "Blob Jr.", phone: "555-0100")
    }
    await store.receive(\.path.popFrom, 0) {
      $0.path = StackState()
    }
  }

  @Test func anEditUndoneHasNoChanges() async {
    let store = TestStore(initialState: Contacts.State(contacts: [self.blob])) {
      Contacts()
    }
    await store.send(.contactTapped(id: self.blob.id)) {
      $0.path[id: 0] = .detail(ContactDetail.State(contact: self.blob))
    }
    await store.send(\.path[id: 0].detail.binding.name, "Blo") {
      $0.path[id: 0, case: \.detail]?.name = "Blo"
      $0.path[id: 0, case: \.detail]?.hasChanges = true
    }
    await store.send(\.path[id: 0].detail.binding.name, "Blob") {
      $0.path[id: 0, case: \.detail]?.name = "Blob"
      $0.path[id: 0, case: \.detail]?.hasChanges = false
    }
    await store.send(\.path.popFrom, 0) {
      $0.path = StackState()
    }
  }

  @Test func aNewContactIsPushedAndADeletionIsConfirmedThenPops() async {
    let store = TestStore(initialState: Contacts.State(contacts: [self.blob])) {
      Contacts()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let added = Contact(id: UUID(0), name: "New contact")
    await store.send(.addButtonTapped) {
      $0.contacts.append(added)
      $0.path[id: 0] = .detail(ContactDetail.State(contact: added))
    }
    await store.send(.contactTapped(id: self.blob.id)) {
      $0.path[id: 1] = .detail(ContactDetail.State(contact: self.blob))
    }
    await store.send(\.path[id: 1].detail.deleteButtonTapped) {
      $0.path[id: 1, case: \.detail]?.confirmationDialog = ConfirmationDialogState {
        TextState("Delete Blob?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) {
          TextState("Delete")
        }
      }
    }
    await store.send(\.path[id: 1].detail.confirmationDialog.confirmDeletion) {
      $0.path[id: 1, case: \.detail]?.confirmationDialog = nil
    }
    await store.receive(\.path[id: 1].detail.delegate.deleteContact) {
      $0.contacts.remove(id: self.blob.id)
    }
    await store.receive(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
    }
    #expect(store.state.path.ids == [0])
  }
}
