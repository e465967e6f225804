import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import PropertyBased
import TestSupport
import Testing
import TimeTravel

/// A recording's step updates, applied one after another from the initial state, give the
/// state the reducer produced after every action, for random scripts of the todos feature:
/// todos added, edited, toggled, deleted one and many at a time, cleared, filtered and sorted.
@MainActor
@Suite struct StepUpdatePropertyTests {
  /// One action of a script; a todo is chosen by its position among those there when it is sent.
  nonisolated enum Step {
    case add
    case clearCompleted
    case delete(Int)
    case deleteMany([Int])
    case filter(Todos.Filter)
    case sort
    case toggle(Int)
    case edit(Int, String)
  }

  nonisolated static func step(_ rng: inout some RandomNumberGenerator) -> Step {
    let position = Int.random(in: 0..<64, using: &rng)
    switch Int.random(in: 0..<12, using: &rng) {
    case 0, 1, 2: return .add
    case 3: return .clearCompleted
    case 4: return .delete(position)
    case 5:
      return .deleteMany(
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in .random(in: 0..<64, using: &rng) })
    case 6: return .filter(Todos.Filter.allCases.randomElement(using: &rng)!)
    case 7: return .sort
    case 8, 9: return .toggle(position)
    default:
      return .edit(
        position, ["", "milk", "eggs", "ünïcødé \"quoted\"", "a\nb"].randomElement(using: &rng)!)
    }
  }

  nonisolated static let scripts = Generator<[Step], Shrink.None<[Step]>> { rng in
    (0..<Int.random(in: 1...40, using: &rng)).map { _ in Self.step(&rng) }
  }

  /// The action `step` stands for in a state holding the todos `ids`.
  static func action(_ step: Step, _ ids: [UUID]) -> Todos.Action {
    func id(_ position: Int) -> UUID? { ids.isEmpty ? nil : ids[position % ids.count] }
    switch step {
    case .add: return .addTodoButtonTapped
    case .clearCompleted: return .clearCompletedButtonTapped
    case let .delete(position): return id(position).map { .delete(id: $0) } ?? .sortCompleted
    case let .deleteMany(positions): return .deleteMany(ids: positions.compactMap(id))
    case let .filter(filter): return .filterPicked(filter)
    case .sort: return .sortCompleted
    case let .toggle(position):
      return id(position).map { .todos(.element(id: $0, action: .checkBoxToggled)) }
        ?? .addTodoButtonTapped
    case let .edit(position, text):
      return id(position).map { .todos(.element(id: $0, action: .textFieldChanged(text))) }
        ?? .addTodoButtonTapped
    }
  }

  @Test func theUpdatesGiveTheStateAfterEveryAction() async throws {
    await propertyCheck(count: 80, input: Self.scripts) { script in
      let directory = TemporaryDirectory()
      let url = directory.file()
      // NB: No checkpoint before the last action: every state is read through the updates.
      let recorder = try RecorderOf<Todos>(
        url: url, feature: "todos", initialState: Todos.State(), checkpointInterval: 1_000)
      let store = withDependencies {
        $0.uuid = .incrementing
        $0.continuousClock = TestClock()
      } operation: {
        Store(initialState: Todos.State()) { Todos().recording(to: recorder) }
      }
      var produced: [JSONValue] = []
      for step in script {
        store.send(Self.action(step, Array(store.state.todos.ids)))
        produced.append(try JSONValue.parse(Array(JSONEncoder().encode(store.state))))
      }
      try recorder.close()
      let recording = try Recording(contentsOf: url)
      try #require(recording.count == script.count)
      #expect(recording.header.hasStepUpdates)
      for (index, state) in produced.enumerated() {
        #expect(try recording.stateJSON(after: index + 1) == state, "after action \(index + 1)")
      }
      // And the reducer, replayed, agrees with the recording at every step.
      let timeline = try Timeline(recording: recording, reducer: Todos(), feature: "todos")
      #expect(try timeline.verify(everyStep: true) == nil)
    }
  }
}
