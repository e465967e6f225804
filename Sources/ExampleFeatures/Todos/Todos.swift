import ComposableArchitecture
import Foundation

/// A todo list: add, edit, complete, delete and filter todos. A second after a todo is completed,
/// completed todos sink below the others; completing another within that second restarts the wait.
@Reducer public struct Todos: Sendable {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var filter: Filter = .all
    public var todos: IdentifiedArrayOf<Todo.State> = []

    public init(filter: Filter = .all, todos: IdentifiedArrayOf<Todo.State> = []) {
      self.filter = filter
      self.todos = todos
    }

    /// The todos the filter shows.
    public var filteredTodos: IdentifiedArrayOf<Todo.State> {
      switch self.filter {
      case .active: self.todos.filter { !$0.isComplete }
      case .all: self.todos
      case .completed: self.todos.filter(\.isComplete)
      }
    }
  }

  /// Which todos the list shows.
  public enum Filter: String, CaseIterable, Codable, Equatable, Sendable {
    case active = "Active"
    case all = "All"
    case completed = "Completed"
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case addTodoButtonTapped
    case clearCompletedButtonTapped
    /// Deletes one todo (swiping a row).
    case delete(id: UUID)
    /// Deletes several (the edit mode's selection).
    case deleteMany(ids: [UUID])
    case filterPicked(Filter)
    case sortCompleted
    case todos(IdentifiedActionOf<Todo>)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  private enum CancelID { case todoCompletion }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: self.uuid()), at: 0)
        return .none

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none

      case let .delete(id):
        state.todos.remove(id: id)
        return .none

      case let .deleteMany(ids):
        for id in ids {
          state.todos.remove(id: id)
        }
        return .none

      case let .filterPicked(filter):
        state.filter = filter
        return .none

      case .sortCompleted:
        let incomplete = state.todos.filter { !$0.isComplete }
        let complete = state.todos.filter(\.isComplete)
        state.todos = IdentifiedArray(uniqueElements: incomplete + complete)
        return .none

      case .todos(.element(id: _, action: .checkBoxToggled)):
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.sortCompleted)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)

      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) {
      Todo()
    }
  }
}
