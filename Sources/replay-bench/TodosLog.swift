import ActionLog
import StepChanges
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
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
        feature: "todos", stateType: recordedTypeName(Todos.State.self),
        actionType: recordedTypeName(Todos.Action.self), startedAt: Date(),
        checkpointInterval: 100,
        // NB: The types' version as the store records it: an older one would be migrated
        // on every read, which no store-made recording is.
        schemaVersion: FeatureSchema.of(Todos.State.self).version
      ),
      initialState: Todos.State(),
      options: .init(syncPolicy: .never, codec: codec)
    )
  }

  /// Writes a todos log of `actions` actions a microsecond apart, without checkpoints.
  static func writeTodosLog(_ url: URL, actions: Int, sharedRecords: Bool = false) throws {
    let writer = try self.todosWriter(url)
    // As an app records it: each action with the line that sent it (a few lines, as a view
    // sends from), and, with `sharedRecords`, now and then a shared value changed from outside.
    let sites = (0..<4).map {
      CallSite(fileID: "ExampleFeatures/TodosView.swift", line: UInt(20 + 5 * $0))
    }
    // NB: With the ids the reducer reads, as a store records them: a replay without them would
    // drift, every later element action reporting a missing element.
    var added = 0
    for (index, action) in self.todosScript(count: actions).enumerated() {
      var captured = CapturedValues()
      if case .addTodoButtonTapped = action {
        captured = CapturedValues(["uuid": [UUID(added).uuidString]])
        added += 1
      }
      if sharedRecords, index % 1_000 == 999 {
        writer.append(
          .shared(seq: index, .value(name: ".inMemory(\"sync\")", source: .outside, value: index)))
      }
      writer.append(
        .action(
          seq: index + 1, time: .nanoseconds(index * 1_000), origin: .send, value: action,
          captured: captured, site: sites[(index / 7) % sites.count]
        )
      )
    }
    try writer.close()
  }

  /// The baseline: read the file the way `Recording` does (memory-mapped) and count its lines.
}
