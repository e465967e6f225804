import ComposableArchitecture
import ExampleFeatures
import Foundation

// The todos feature of `ExampleFeatures` as TCA's apps write it, with nothing declared
// `Codable`: the macros write its codec. The bench measures it beside the original, which
// declares `Codable` everywhere.

@Reducer struct PlainTodo {
  @ObservableState
  struct State: Equatable, Identifiable, Sendable {
    var description: String
    let id: UUID
    var isComplete: Bool
    var priority: Int = 0

    init(description: String = "", id: UUID, isComplete: Bool = false, priority: Int = 0) {
      self.description = description
      self.id = id
      self.isComplete = isComplete
      self.priority = priority
    }
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case checkBoxToggled
    case textFieldChanged(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .checkBoxToggled:
        state.isComplete.toggle()
      case let .textFieldChanged(description):
        state.description = description
      }
      return .none
    }
  }
}

@Reducer struct PlainTodos {
  @ObservableState
  struct State: Equatable, Sendable {
    var filter: Filter = .all
    var todos: IdentifiedArrayOf<PlainTodo.State> = []
  }

  enum Filter: String, CaseIterable, Equatable, Sendable {
    case active = "Active"
    case all = "All"
    case completed = "Completed"
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case addTodoButtonTapped
    case clearCompletedButtonTapped
    case delete(id: UUID)
    case deleteMany(ids: [UUID])
    case filterPicked(Filter)
    case sortCompleted
    case todos(IdentifiedActionOf<PlainTodo>)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  private enum CancelID { case todoCompletion }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(PlainTodo.State(id: self.uuid()), at: 0)
      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
      case let .delete(id):
        state.todos.remove(id: id)
      case let .deleteMany(ids):
        for id in ids { state.todos.remove(id: id) }
      case let .filterPicked(filter):
        state.filter = filter
      case .sortCompleted:
        let incomplete = state.todos.filter { !$0.isComplete }
        let complete = state.todos.filter(\.isComplete)
        state.todos = IdentifiedArray(uniqueElements: incomplete + complete)
      case .todos(.element(id: _, action: .checkBoxToggled)):
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.sortCompleted)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)
      case .todos:
        break
      }
      return .none
    }
    .forEach(\.todos, action: \.todos) {
      PlainTodo()
    }
  }
}

extension PlainTodos.Action {
  /// The same action of the todos feature that declares `Codable`.
  init(_ action: Todos.Action) {
    switch action {
    case .addTodoButtonTapped: self = .addTodoButtonTapped
    case .clearCompletedButtonTapped: self = .clearCompletedButtonTapped
    case let .delete(id): self = .delete(id: id)
    case let .deleteMany(ids): self = .deleteMany(ids: ids)
    case let .filterPicked(filter):
      self = .filterPicked(PlainTodos.Filter(rawValue: filter.rawValue)!)
    case .sortCompleted: self = .sortCompleted
    case let .todos(.element(id, .checkBoxToggled)):
      self = .todos(.element(id: id, action: .checkBoxToggled))
    case let .todos(.element(id, .textFieldChanged(text))):
      self = .todos(.element(id: id, action: .textFieldChanged(text)))
    }
  }
}
