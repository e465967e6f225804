import ComposableArchitecture
import Foundation

/// A contact in the address book.
public struct Contact: Codable, Equatable, Identifiable, Sendable {
  public var id: UUID
  public var name: String
  public var phone: String

  public init(id: UUID, name: String, phone: String = "") {
    self.id = id
    self.name = name
    self.phone = phone
  }
}

/// A contact's screen: a form edited through bindings, saved, or deleted after a confirmation.
@Reducer
public struct ContactDetail: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Presents public var confirmationDialog: ConfirmationDialogState<Action.Dialog>?
    /// The contact as saved; the app updates it when the address book syncs.
    public var contact: Contact
    public var name: String
    public var phone: String
    public var hasChanges = false

    public init(contact: Contact) {
      self.contact = contact
      self.name = contact.name
      self.phone = contact.phone
    }
  }

  public enum Action: BindableAction, Codable, Equatable, Sendable {
    case binding(BindingAction<State>)
    case confirmationDialog(PresentationAction<Dialog>)
    case delegate(Delegate)
    case deleteButtonTapped
    case saveButtonTapped

    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      case deleteContact(id: Contact.ID)
      case saveContact(Contact)
    }

    @CasePathable
    public enum Dialog: Codable, Equatable, Sendable {
      case confirmDeletion
    }
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.reintroducedBugs) var reintroducedBugs

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: { [$0.name, $0.phone] }) { _, _ in
        Reduce { state, _ in
          if self.reintroducedBugs.contains(.editedFormStaysChangedAfterUndo) {
            state.hasChanges = true
            return .none
          }
          state.hasChanges = state.name != state.contact.name || state.phone != state.contact.phone
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .confirmationDialog(.presented(.confirmDeletion)):
        return .run { [id = state.contact.id] send in
          await send(.delegate(.deleteContact(id: id)))
          await self.dismiss()
        }

      case .binding, .confirmationDialog, .delegate:
        return .none

      case .deleteButtonTapped:
        state.confirmationDialog = ConfirmationDialogState {
          TextState("Delete \(state.contact.name)?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) {
            TextState("Delete")
          }
        }
        return .none

      case .saveButtonTapped:
        let contact = Contact(id: state.contact.id, name: state.name, phone: state.phone)
        return .run { send in
          await send(.delegate(.saveContact(contact)))
          await self.dismiss()
        }
      }
    }
    .ifLet(\.$confirmationDialog, action: \.confirmationDialog)
  }
}
