import ActionLog
import ExampleFeatures

// NB: The example features know nothing of the log format (ActionLog), so their
// schemas are declared beside them, in this module, which everything that records or replays
// them links.
extension Todos.State: SchemaVersioned {
  /// The version of the todos' types, and how a recording made with an older one is read: each
  /// change of the types since the first recording is a migration here, so that every recording
  /// still replays (see `Recordings/legacy`).
  public static let schema = FeatureSchema(
    version: 4,
    migrations: [
      // Version 2: a todo has a priority.
      Migration(from: 1, .addField("priority", default: 0, in: "todos[*]")),
      // Version 3: `sortCompletedTodos` is `sortCompleted`.
      Migration(from: 2, .renameCase("sortCompletedTodos", to: "sortCompleted")),
      // Version 4: `delete(ids:)` split in two, `delete(id:)` for one todo and
      // `deleteMany(ids:)` for several.
      Migration(
        from: 3,
        .custom("delete(ids:) split into delete(id:) and deleteMany(ids:)", of: .actions) {
          action in
          guard case .array(let ids)? = action["delete"]?["ids"] else { return }
          action =
            ids.count == 1 ? ["delete": ["id": ids[0]]] : ["deleteMany": ["ids": .array(ids)]]
        }
      ),
    ]
  )
}
