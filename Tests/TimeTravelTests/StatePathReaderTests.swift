import ActionLog
import ComposableArchitecture
import CustomDump
import ExampleFeatures
import Testing

@testable import TimeTravel

/// A path read state after state by a search reads what ``StatePath/value(in:)`` reads, in
/// every state: where the way found in the first does not go, as well as where it does.
@Suite struct StatePathReaderTests {
  /// What reading `path` in `state` gives: the value dumped, or the error.
  private func read(_ read: () throws -> Any) -> String {
    do { return String(customDumping: try read()) } catch { return "error: \(error)" }
  }

  @Test func aReaderReadsWhatThePathReadsInEveryState() throws {
    let timeline = try Timeline(
      recording: try TimelineTests.bundled("todos"), reducer: Todos(), feature: "todos")
    let states = try (0...timeline.count).map { try timeline.state(at: $0) }
    let paths = try [
      "todos[0].isComplete", "todos[2].description", "todos[0]", "filter", "todos.count",
      "todos[9].id", "todos[id: 00000000-0000-0000-0000-000000000001].description", "nope",
    ].map(StatePath.init)
    // NB: Readers found in a state with todos, one without, and one with a single todo.
    let samples = [states[states.count / 2], states[0]] + states.filter { $0.todos.count == 1 }
    for path in paths {
      for sample in samples {
        let reader = StatePath.Reader(path, in: sample)
        for (step, state) in states.enumerated() {
          #expect(
            self.read { try reader.value(in: state) } == self.read { try path.value(in: state) },
            "\(path) at step \(step)")
        }
        // A value of another type where the way found has a todo list.
        let other = Todo.State(description: "Other", id: UUID(0))
        #expect(
          self.read { try reader.value(in: other) } == self.read { try path.value(in: other) },
          "\(path) in a todo")
      }
    }
  }
}
