import Foundation
import ActionLog
import ComposableArchitecture
import CustomDump

/// A feature that `replay` can open: its identifier (the `feature` a recording's header names)
/// and how to make its reducer.
///
/// Build your own `replay` with your features:
///
/// ```swift
/// let features = [
///   ReplayFeature("todos") { Todos() },
///   ReplayFeature("settings") { Settings() },
/// ]
/// ```
public struct ReplayFeature: Sendable {
  /// The identifier recordings of this feature carry in their header.
  public let id: String
  private let makeSession: @Sendable (Recording, FeatureSchema) throws -> any TimelineSession

  /// Registers a feature. Its reducer need not be `Sendable`: one is made for each recording
  /// opened.
  ///
  /// - Parameters:
  ///   - id: The identifier its recordings carry (the `feature:` given to the `Recorder`).
  ///   - schema: The version of its types, and the migrations that read older recordings; by
  ///     default, what the state type declares (``ActionLog/SchemaVersioned``).
  ///   - dependencies: The dependencies its recordings captured.
  ///   - reducer: Makes the feature's reducer, without its recording modifier.
  public init<R: _ReplayableReducer>(
    _ id: String,
    schema: FeatureSchema? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    reducer: @escaping @Sendable () -> R
  ) where R.State: Decodable & Equatable, R.Action: Decodable {
    self.id = id
    let schema = schema ?? .of(R.State.self)
    self.schema = schema
    self.makeSession = { recording, schema in
      try Timeline(
        recording: recording, reducer: reducer(), feature: id, dependencies: dependencies,
        schema: schema
      )
    }
  }

  /// The version of the feature's types, and its migrations.
  public let schema: FeatureSchema

  /// Opens a recording of this feature, read through the feature's migrations when it is older.
  public func open(_ recording: Recording) throws -> any TimelineSession {
    try self.makeSession(recording, self.schema)
  }

  /// Opens a recording of this feature as it is, without migrating it: how its values decode
  /// with today's types, whatever version it says it is.
  public func openAsIs(_ recording: Recording) throws -> any TimelineSession {
    try self.makeSession(recording, FeatureSchema(version: recording.header.schemaVersion))
  }
}

/// What ``ReplayFeature`` asks of a reducer: only that its metatype be sendable, which every
/// plain type's is (`SendableMetatype` exists from Swift 6.2), so that one can be made for each
/// recording opened. The reducer itself need not be `Sendable`.
#if compiler(>=6.2)
  public typealias _ReplayableReducer = Reducer & SendableMetatype
#else
  public typealias _ReplayableReducer = Reducer
#endif
