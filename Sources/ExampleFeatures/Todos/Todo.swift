import ComposableArchitecture
import Foundation

/// One row of the todo list.
@Reducer public struct Todo: Sendable {
  @ObservableState
  public struct State: Equatable, Codable, Identifiable, Sendable {
    public var description: String
    public let id: UUID
    public var isComplete: Bool
    /// How soon it should be done: 0, the default, is no hurry. Since version 2 of the todos.
    public var priority: Int = 0

    public init(description: String = "", id: UUID, isComplete: Bool = false, priority: Int = 0) {
      self.description = description
      self.id = id
      self.isComplete = isComplete
      self.priority = priority
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
