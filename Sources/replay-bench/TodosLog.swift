import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  static func todosWriter(
    _ url: URL, codec: any RecordCodec = CompactJSONCodec()
  ) throws -> LogWriter {
    try LogWriter(
      url: url,
      header: LogHeader(
        feature: "todos", stateType: "Todos.State", actionType: "Todos.Action", startedAt: Date(),
        checkpointInterval: 100
      ),
      initialState: Todos.State(),
      options: .init(syncPolicy: .never, codec: codec)
    )
  }

  /// Writes a todos log of `actions` actions a microsecond apart, without checkpoints.
  static func writeTodosLog(_ url: URL, actions: Int) throws {
    let writer = try self.todosWriter(url)
    for (index, action) in self.todosScript(count: actions).enumerated() {
      writer.append(
        .action(
          seq: index + 1, time: .nanoseconds(index * 1_000), origin: .send, value: action,
          captured: CapturedValues()
        )
      )
    }
    try writer.close()
  }

  /// The baseline: read the file the way `Recording` does (memory-mapped) and count its lines.
}
