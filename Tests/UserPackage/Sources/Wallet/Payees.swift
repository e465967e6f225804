import ComposableArchitecture
import Foundation

/// The people the wallet pays: added through a sheet whose form is edited through bindings,
/// removed after an alert. Written as TCA's documentation writes a feature.
@Reducer
public struct Payees: Sendable {
  @Reducer
  public enum Destination {
    case add(PayeeForm)
    case alert(AlertState<Payees.Action.Alert>)
  }

  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Presents public var destination: Destination.State?
    public var payees: IdentifiedArrayOf<Payee> = []

    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case addTapped
    case destination(PresentationAction<Destination.Action>)
    case removeTapped(id: Payee.ID)

    @CasePathable
    public enum Alert: Codable, Equatable, Sendable {
      case confirmRemoval(id: Payee.ID)
    }
  }

  @Dependency(\.uuid) var uuid

  /// Whether a saved name is trimmed of spaces.
  let trimsNames: Bool

  public init(trimsNames: Bool = true) {
    self.trimsNames = trimsNames
  }

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.destination = .add(PayeeForm.State(id: self.uuid()))
        return .none

      case let .destination(.presented(.add(.delegate(.save(payee))))):
        var payee = payee
        if self.trimsNames {
          payee.name = payee.name.trimmingCharacters(in: .whitespaces)
        }
        state.payees.append(payee)
        return .none

      case let .destination(.presented(.alert(.confirmRemoval(id)))):
        state.payees.remove(id: id)
        return .none

      case .destination:
        return .none

      case let .removeTapped(id):
        guard let payee = state.payees[id: id] else { return .none }
        state.destination = .alert(
          AlertState {
            TextState("Remove \(payee.name)?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmRemoval(id: id)) {
              TextState("Remove")
            }
          }
        )
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension Payees.Destination.State: Codable, Equatable, Sendable {}
extension Payees.Destination.Action: Codable, Equatable, Sendable {}

/// Someone the wallet pays.
public struct Payee: Codable, Equatable, Identifiable, Sendable {
  public let id: UUID
  public var name: String
  public var iban: String

  public init(id: UUID, name: String, iban: String) {
    self.id = id
    self.name = name
    self.iban = iban
  }
}

/// The form of a new payee.
@Reducer
public struct PayeeForm: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public let id: UUID
    public var name = ""
    public var iban = ""

    public init(id: UUID, name: String = "", iban: String = "") {
      self.id = id
      self.name = name
      self.iban = iban
    }
  }

  public enum Action: BindableAction, Codable, Equatable, Sendable {
    case binding(BindingAction<State>)
    case delegate(Delegate)
    case saveTapped

    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      case save(Payee)
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
      case .saveTapped:
        return .run { [payee = Payee(id: state.id, name: state.name, iban: state.iban)] send in
          await send(.delegate(.save(payee)))
          await self.dismiss()
        }
      }
    }
  }
}
