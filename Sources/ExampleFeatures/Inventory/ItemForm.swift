import ComposableArchitecture
import Foundation

/// An item in the inventory.
public struct Item: Codable, Equatable, Identifiable, Sendable {
  public var id: UUID
  public var name: String
  public var quantity: Int

  public init(id: UUID, name: String = "", quantity: Int = 1) {
    self.id = id
    self.name = name
    self.quantity = quantity
  }
}

/// The sheet that adds an item: a form edited through bindings, saved or cancelled.
@Reducer
public struct ItemForm: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public let id: Item.ID
    public var name: String
    public var quantity: Int

    public init(item: Item) {
      self.id = item.id
      self.name = item.name
      self.quantity = item.quantity
    }

    /// The item as the form has it.
    public var item: Item { Item(id: self.id, name: self.name, quantity: self.quantity) }

    /// Whether the item can be saved.
    public var isValid: Bool { !self.name.isEmpty && self.quantity > 0 }
  }

  public enum Action: BindableAction, Codable, Equatable, Sendable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case delegate(Delegate)
    case saveButtonTapped

    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      case saveItem(Item)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none
      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }
      case .saveButtonTapped:
        guard state.isValid else { return .none }
        return .run { [item = state.item] send in
          await send(.delegate(.saveItem(item)))
          await self.dismiss()
        }
      }
    }
  }
}
