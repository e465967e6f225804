import ComposableArchitecture
import Foundation

/// A profile screen written as TCA 1.x apps write one, in a module of its own: its view's
/// actions in `view` (``ViewAction``) with their bindings, a response as `Result { try await … }`
/// sent with an animation, an edit mode and a localized title in its state, and an alert.
@Reducer
public struct Profile: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Presents public var alert: AlertState<Action.Alert>?
    public var editMode: EditMode = .inactive
    public var isSaving = false
    public var name: String
    public var title: LocalizedStringKey = "Profile"

    public init(name: String = "") {
      self.name = name
    }
  }

  public enum Action: ViewAction, Sendable {
    case alert(PresentationAction<Alert>)
    case saveResponse(Result<String, any Error>)
    case view(View)

    @CasePathable
    public enum Alert: Codable, Equatable, Sendable {
      case tryAgainButtonTapped
    }

    @CasePathable
    public enum View: BindableAction, Sendable {
      case binding(BindingAction<State>)
      case editButtonTapped
      case saveButtonTapped
    }
  }

  @Dependency(\.profileClient) var profileClient

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .alert(.presented(.tryAgainButtonTapped)):
        return self.save(&state)
      case .alert:
        return .none
      case .saveResponse(.failure):
        state.isSaving = false
        state.alert = AlertState {
          TextState("Could not save")
        } actions: {
          ButtonState(role: .cancel) { TextState("Cancel") }
          ButtonState(action: .tryAgainButtonTapped) { TextState("Try again") }
        }
        return .none
      case let .saveResponse(.success(name)):
        state.isSaving = false
        state.name = name
        state.editMode = .inactive
        state.title = "Profile of \(name)"
        return .none
      case .view(.binding):
        return .none
      case .view(.editButtonTapped):
        state.editMode = state.editMode.isEditing ? .inactive : .active
        return .send(.view(.binding(.set(\.isSaving, false))), animation: .easeInOut)
      case .view(.saveButtonTapped):
        return self.save(&state)
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  private func save(_ state: inout State) -> Effect<Action> {
    state.isSaving = true
    return .run { [name = state.name] send in
      await send(
        .saveResponse(Result { try await self.profileClient.save(name) }),
        animation: .spring(duration: 0.3).delay(0.1)
      )
    }
  }
}
