// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ComposableArchitecture
import Foundation
import Testing

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

@MainActor
@Suite struct InventoryTests {
  let apples = Item(
    id: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, name: "Apples", quantity: 3)

  @Test func anItemIsAddedThroughTheSheetWhichDismissesItself() async {
    let store = TestStore(initialState: Inventory.State()) {
      Inventory()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let id = UUID(0)
    await store.send(.addButtonTapped) {
      $0.destination = .addItem(ItemForm.State(item: Item(id: id)))
    }
    await store.send(\.destination.addItem.binding.name, "Pears") {
      $0.destination?.addItem?.name = "Pears"
    }
    await store.send(\.destination.addItem.binding.quantity, 4) {
      $0.destination?.addItem?.quantity = 4
    }
    await store.send(\.destination.addItem.saveButtonTapped)
    await store.receive(\.destination.addItem.delegate.saveItem) {
      $0.items = [Item(id: id, name: "Pears", quantity: 4)]
    }
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func anInvalidItemIsNotSavedAndCancelDismisses() async {
    let store = TestStore(initialState: Inventory.State()) {
      Inventory()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addItem(ItemForm.State(item: Item(id: UUID(0))))
    }
    await store.send(\.destination.addItem.saveButtonTapped)
    await store.send(\.destination.addItem.cancelButtonTapped)
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func deletingAsksFirst() async {
    let store = TestStore(initialState: Inventory.State(items: [self.apples])) {
      Inventory()
    }
    await store.send(.deleteButtonTapped(id: self.apples.id)) {
      $0.destination = .alert(.deleteConfirmation(self.apples))
    }
    await store.send(\.destination.alert.confirmDeletion, self.apples.id) {
      $0.destination = nil
      $0.items = []
    }
  }

  @Test func aCancelledDeletionKeepsTheItem() async {
    let store = TestStore(initialState: Inventory.State(items: [self.apples])) {
      Inventory()
    }
    await store.send(.deleteButtonTapped(id: self.apples.id)) {
      $0.destination = .alert(.deleteConfirmation(self.apples))
    }
    await store.send(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func theAlertNamesTheItemAndItsButtons() {
    let alert = AlertState<Inventory.Action.Alert>.deleteConfirmation(self.apples)
    #expect(String(state: alert.title) == "Delete Apples?")
    #expect(alert.buttons.map(\.role) == [.destructive, .cancel])
    #expect(alert.buttons.first?.action.action == .confirmDeletion(id: self.apples.id))
  }
}
