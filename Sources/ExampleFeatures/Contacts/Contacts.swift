import ComposableArchitecture
import Foundation

/// An address book: a list of contacts, and a navigation stack of their screens.
@Reducer
public struct Contacts: Sendable {
  @Reducer
  public enum Path {
    case detail(ContactDetail)
  }

  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var contacts: IdentifiedArrayOf<Contact>
    public var path = StackState<Path.State>()

    public init(contacts: IdentifiedArrayOf<Contact> = [], path: StackState<Path.State> = []) {
      self.contacts = contacts
      self.path = path
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    case addButtonTapped
    case contactTapped(id: Contact.ID)
    /// The address book synced: these contacts changed elsewhere.
    case contactsSynced([Contact])
    case path(StackActionOf<Path>)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        let contact = Contact(id: self.uuid(), name: "New contact")
        state.contacts.append(contact)
        state.path.append(.detail(ContactDetail.State(contact: contact)))
        return .none

      case let .contactTapped(id):
        guard let contact = state.contacts[id: id] else { return .none }
        state.path.append(.detail(ContactDetail.State(contact: contact)))
        return .none

      case let .contactsSynced(synced):
        // The list takes the synced contacts; an open screen takes them where its form was
        // not edited.
        for contact in synced {
          state.contacts[id: contact.id] = contact
          for id in state.path.ids {
            guard case var .detail(detail) = state.path[id: id], detail.contact.id == contact.id
            else { continue }
            if detail.name == detail.contact.name { detail.name = contact.name }
            if detail.phone == detail.contact.phone { detail.phone = contact.phone }
            detail.contact = contact
            detail.hasChanges = detail.name != contact.name || detail.phone != contact.phone
            state.path[id: id] = .detail(detail)
          }
        }
        return .none

      case let .path(.element(_, .detail(.delegate(.saveContact(contact))))):
        state.contacts[id: contact.id] = contact
        return .none

      case let .path(.element(_, .detail(.delegate(.deleteContact(id))))):
        state.contacts.remove(id: id)
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

extension Contacts.Path.State: Codable, Equatable, Sendable {}
extension Contacts.Path.Action: Codable, Equatable, Sendable {}
