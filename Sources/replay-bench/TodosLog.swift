import ActionLog
import StepChanges
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
    // As an app records it: each action with the line that sent it (a few lines, as a view
    // sends from), and now and then a shared value changed from outside.
    let sites = (0..<4).map {
      CallSite(fileID: "ExampleFeatures/TodosView.swift", line: UInt(20 + 5 * $0))
    }
    for (index, action) in self.todosScript(count: actions).enumerated() {
      if index % 1_000 == 999 {
        writer.append(
          .shared(seq: index, .value(name: ".inMemory(\"sync\")", source: .outside, value: index)))
      }
      writer.append(
        .action(
          seq: index + 1, time: .nanoseconds(index * 1_000), origin: .send, value: action,
          captured: CapturedValues(), site: sites[(index / 7) % sites.count]
        )
      )
    }
    try writer.close()
  }

  /// The baseline: read the file the way `Recording` does (memory-mapped) and count its lines.
}
