import ComposableArchitecture
import Foundation
import Testing
import Wallet

@MainActor
@Test func correctPayeeExpectationsPass() async {
  let store = TestStore(initialState: Payees.State()) {
    Payees()
  } withDependencies: {
    $0.uuid = .incrementing
  }
  await store.send(.addTapped) {
    $0.destination = .add(PayeeForm.State(id: UUID(0)))
  }
  await store.send(\.destination.add.binding.name, " Blob ") {
    $0.destination?.add?.name = " Blob "
  }
  await store.send(\.destination.add.binding.iban, "NL01") {
    $0.destination?.add?.iban = "NL01"
  }
  await store.send(\.destination.add.saveTapped)
  await store.receive(\.destination.add.delegate.save) {
    $0.payees = [Payee(id: UUID(0), name: "Blob", iban: "NL01")]
  }
  await store.receive(\.destination.dismiss) {
    $0.destination = nil
  }
  await store.send(.removeTapped(id: UUID(0))) {
    $0.destination = .alert(
      AlertState {
        TextState("Remove Blob?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmRemoval(id: UUID(0))) {
          TextState("Remove")
        }
      }
    )
  }
  await store.send(\.destination.alert.confirmRemoval, UUID(0)) {
    $0.destination = nil
    $0.payees = []
  }
}

@MainActor
@Test func mistakenPayeeExpectationFails() async {
  let store = TestStore(initialState: Payees.State()) {
    Payees()
  } withDependencies: {
    $0.uuid = .incrementing
  }
  await store.send(.addTapped) {
    $0.destination = .add(PayeeForm.State(id: UUID(0)))
  }
  await store.send(\.destination.add.binding.name, "Blob") {
    $0.destination?.add?.name = "Blobby"
  }
}
