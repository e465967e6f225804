import ComposableArchitecture
import Foundation

/// One row of the todo list.
public struct Todo: Reducer, Sendable {
  public struct State: Equatable, Codable, Identifiable, Sendable {
    public var description: String
    public let id: UUID
    public var isComplete: Bool

    public init(description: String = "", id: UUID, isComplete: Bool = false) {
      self.description = description
      self.id = id
      self.isComplete = isComplete
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case checkBoxToggled
    case textFieldChanged(String)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .checkBoxToggled:
        state.isComplete.toggle()
        return .none
      case let .textFieldChanged(description):
        state.description = description
        return .none
      }
    }
  }
}
