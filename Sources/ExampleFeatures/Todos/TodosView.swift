import ComposableArchitecture
import Foundation

/// The todos screen's controls, without a UI toolkit: each does with the store what a SwiftUI
/// view's button, picker or text field does, so that a recording names these lines as where
/// the actions were sent from, as it would an app's views.
@MainActor
public struct TodosView {
  /// The screen's store.
  public let store: StoreOf<Todos>

  /// A screen showing `store`.
  public init(store: StoreOf<Todos>) {
    self.store = store
  }

  /// The "Add" button.
  public func addButtonTapped() {
    self.store.send(.addTodoButtonTapped)
  }

  /// The filter picker.
  public func filterPicked(_ filter: Todos.Filter) {
    self.store.send(.filterPicked(filter))
  }

  /// Rows swiped away together.
  public func deleteRows(_ ids: [Todo.State.ID]) {
    self.store.send(.deleteMany(ids: ids))
  }

  /// The "Clear completed" button.
  public func clearCompletedButtonTapped() {
    self.store.send(.clearCompletedButtonTapped)
  }

  /// The row of the to-do `id`.
  public func row(_ id: Todo.State.ID) -> TodoRow {
    TodoRow(store: self.store, id: id)
  }
}

/// A row of the todos screen: its text field and its check box.
@MainActor
public struct TodoRow {
  let store: StoreOf<Todos>
  /// The row's to-do.
  public let id: Todo.State.ID

  /// The text field, as the user types into it.
  public func textChanged(_ text: String) {
    self.store.send(.todos(.element(id: self.id, action: .textFieldChanged(text))))
  }

  /// The check box. The returned task ends when the list has re-sorted.
  @discardableResult
  public func checkBoxTapped() -> StoreTask {
    self.store.send(.todos(.element(id: self.id, action: .checkBoxToggled)))
  }
}
