import ComposableArchitecture
import Foundation

/// A list of items with a sheet that adds one and an alert that confirms a deletion, written
/// as TCA's documentation writes such a feature.
@Reducer
public struct Inventory: Sendable {
  @Reducer
  public enum Destination {
    case addItem(ItemForm)
    case alert(AlertState<Inventory.Action.Alert>)
  }

  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Presents public var destination: Destination.State?
    public var items: IdentifiedArrayOf<Item>

    public init(destination: Destination.State? = nil, items: IdentifiedArrayOf<Item> = []) {
      self.destination = destination
      self.items = items
    }

    /// How many of all the items there are.
    public var totalQuantity: Int { self.items.reduce(0) { $0 + $1.quantity } }
  }

  public enum Action: Codable, Equatable, Sendable {
    case addButtonTapped
    case deleteButtonTapped(id: Item.ID)
    case destination(PresentationAction<Destination.Action>)

    @CasePathable
    public enum Alert: Codable, Equatable, Sendable {
      case confirmDeletion(id: Item.ID)
    }
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addItem(ItemForm.State(item: Item(id: self.uuid())))
        return .none

      case let .deleteButtonTapped(id):
        guard let item = state.items[id: id] else { return .none }
        state.destination = .alert(.deleteConfirmation(item))
        return .none

      case let .destination(.presented(.addItem(.delegate(.saveItem(item))))):
        state.items.append(item)
        return .none

      case let .destination(.presented(.alert(.confirmDeletion(id)))):
        state.items.remove(id: id)
        return .none

      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension Inventory.Destination.State: Codable, Equatable, Sendable {}
extension Inventory.Destination.Action: Codable, Equatable, Sendable {}

extension AlertState where Action == Inventory.Action.Alert {
  /// "Delete NAME?", with a destructive Delete and a Cancel.
  public static func deleteConfirmation(_ item: Item) -> Self {
    Self {
      TextState("Delete \(item.name)?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(id: item.id)) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("All \(item.quantity) will be removed from the inventory.")
    }
  }
}
