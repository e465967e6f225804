import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing

@MainActor
@Suite struct TodosTests {
  private func makeStore(
    _ state: Todos.State = Todos.State(), clock: TestClock<Duration> = TestClock()
  ) -> TestStoreOf<Todos> {
    TestStore(initialState: state) {
      Todos()
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
    }
  }

  @Test func addAndEditTodos() async {
    let store = self.makeStore()
    await store.send(.addTodoButtonTapped) {
      $0.todos.insert(Todo.State(id: UUID(0)), at: 0)
    }
    await store.send(.addTodoButtonTapped) {
      $0.todos.insert(Todo.State(id: UUID(1)), at: 0)
    }
    await store.send(.todos(.element(id: UUID(1), action: .textFieldChanged("Buy milk")))) {
      $0.todos[id: UUID(1)]?.description = "Buy milk"
    }
  }

  @Test func completingSortsAfterOneSecond() async {
    let clock = TestClock()
    let store = self.makeStore(
      Todos.State(todos: [
        Todo.State(description: "A", id: UUID(0)),
        Todo.State(description: "B", id: UUID(1)),
      ]),
      clock: clock
    )
    await store.send(.todos(.element(id: UUID(0), action: .checkBoxToggled))) {
      $0.todos[id: UUID(0)]?.isComplete = true
    }
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(\.sortCompleted) {
      $0.todos = [
        Todo.State(description: "B", id: UUID(1)),
        Todo.State(description: "A", id: UUID(0), isComplete: true),
      ]
    }
  }

  @Test func completingAgainWithinASecondRestartsTheWait() async {
    let clock = TestClock()
    let store = self.makeStore(
      Todos.State(todos: [
        Todo.State(description: "A", id: UUID(0)),
        Todo.State(description: "B", id: UUID(1)),
      ]),
      clock: clock
    )
    let first = await store.send(.todos(.element(id: UUID(0), action: .checkBoxToggled))) {
      $0.todos[id: UUID(0)]?.isComplete = true
    }
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .milliseconds(500))
    await store.send(.todos(.element(id: UUID(0), action: .checkBoxToggled))) {
      $0.todos[id: UUID(0)]?.isComplete = false
    }
    // The first wait was cancelled, so only one sort arrives: a second one would fail the test
    // as an unreceived action. NB: Until the cancelled wait has finished, it may still be what
    // sleeps on the clock; advancing then would leave the second wait to start after the advance.
    await first.finish()
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(\.sortCompleted)
  }

  @Test func deleteClearAndFilter() async {
    let store = self.makeStore(
      Todos.State(todos: [
        Todo.State(description: "A", id: UUID(0), isComplete: true),
        Todo.State(description: "B", id: UUID(1)),
        Todo.State(description: "C", id: UUID(2), isComplete: true),
      ])
    )
    await store.send(.filterPicked(.completed)) {
      $0.filter = .completed
    }
    #expect(store.state.filteredTodos.map(\.description) == ["A", "C"])
    await store.send(.delete(id: UUID(0))) {
      $0.todos.remove(id: UUID(0))
    }
    await store.send(.clearCompletedButtonTapped) {
      $0.todos.remove(id: UUID(2))
    }
    await store.send(.filterPicked(.active)) {
      $0.filter = .active
    }
    #expect(store.state.filteredTodos.map(\.description) == ["B"])
  }
}

/// The diff the product shows at a step of a large todo list is CustomDump's, line for line.
@Suite struct LargeTodosDiffTests {
  @Test(arguments: [0, 1, 499, 998, 999])
  func oneFieldOfAThousandTodosChanged(at index: Int) throws {
    var before = Todos.State()
    for number in 0..<1_000 {
      before.todos.append(
        Todo.State(description: "todo \(number)", id: UUID(number), priority: number % 4))
    }
    var after = before
    after.todos[index].isComplete = true
    let pruned = try #require(prunedDiff(before, after))
    #expect(pruned.split(separator: "\n") == CustomDump.diff(before, after)?.split(separator: "\n"))
    #expect(pruned.split(separator: "\n").count < 20)
    // A todo added, one removed, two swapped: still CustomDump's lines.
    var added = before
    added.todos.insert(Todo.State(description: "new", id: UUID(5_000)), at: index)
    #expect(prunedDiff(before, added) == CustomDump.diff(before, added))
    var removed = before
    removed.todos.remove(at: index)
    #expect(prunedDiff(before, removed) == CustomDump.diff(before, removed))
    var swapped = before
    swapped.todos.swapAt(index, 999 - index)
    #expect(prunedDiff(before, swapped) == CustomDump.diff(before, swapped))
  }
}
