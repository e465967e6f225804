import ActionLog
import ExampleFeatures

// NB: The example features know nothing of the log format (ActionLog), so their
// schemas are declared beside them, in this module, which everything that records or replays
// them links.
extension SongsApp.State: SchemaVersioned {
  /// The version of the songs app's types, and how a recording made with an older one is read
  /// (see `Recordings/legacy`).
  public static let schema = FeatureSchema(
    version: 2,
    migrations: [
      // Version 2: a song no longer carries its length (the player reports it).
      Migration(
        from: 1,
        .removeField("duration", in: "library.songs[*].song"),
        .removeField("duration", in: "favorites.songs[*]")
      )
    ]
  )
}
