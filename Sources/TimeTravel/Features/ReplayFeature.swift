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
  /// Its state's type as recordings name it (`Wallet.Wallet.State`): how a recording made by a
  /// test store, which does not know the identifier, finds the feature.
  public let stateType: String
  private let makeSession: @Sendable (Recording, FeatureSchema) throws -> any TimelineSession

  /// Registers a feature. Its reducer need not be `Sendable`: one is made for each recording
  /// opened.
  ///
  /// - Parameters:
  ///   - id: The identifier its recordings carry (the `feature:` given to the `Recorder`).
  ///   - schema: The version of its types, and the migrations that read older recordings; by
  ///     default, what the state type declares (``ActionLog/SchemaVersioned``).
  ///   - dependencies: The dependencies its recordings captured.
  ///   - behaviours: Other behaviours of the feature that recordings may have been made with,
  ///     by name: a feature flag's other side, the behaviour before a fix kept behind a
  ///     dependency. `replay shrink --verify --recorded-with NAME` replays shorter recordings
  ///     with one to know what they would have recorded.
  ///   - reducer: Makes the feature's reducer, without its recording modifier.
  public init<R: _ReplayableReducer>(
    _ id: String,
    schema: FeatureSchema? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    behaviours: [String: @Sendable () -> any Reducer<R.State, R.Action>] = [:],
    reducer: @escaping @Sendable () -> R
  ) where R.State: Decodable & Equatable, R.Action: Decodable {
    self.id = id
    self.stateType = recordedTypeName(R.State.self)
    let schema = schema ?? .of(R.State.self)
    self.schema = schema
    self.behaviours = behaviours.keys.sorted()
    self.makeSession = { recording, schema in
      try Timeline(
        recording: recording, reducer: reducer(), feature: recording.header.feature,
        dependencies: dependencies,
        schema: schema
      )
    }
    self.makeShrink = { recording, request, progress, isCancelled in
      let reference = try request.recordedWith.map { name in
        guard let make = behaviours[name] else {
          throw ShrinkError.noSuchBehaviour(name, available: behaviours.keys.sorted())
        }
        return make()
      }
      let timeline = try Timeline(
        recording: recording, reducer: reducer(), feature: recording.header.feature,
        dependencies: dependencies,
        schema: schema
      )
      return try timeline.shrink(
        to: request.url, keeping: request.condition, recordedBy: reference,
        metadata: request.metadata, source: request.source, progress: progress,
        isCancelled: isCancelled)
    }
  }

  /// Registers a reducer whose state and actions are not `Decodable` (written without the
  /// macros, saying nothing of `Codable`): they are read from recordings by reflection, as
  /// synthesized `Decodable` would read them had they declared it. Replaying stops, naming the
  /// type and the conformance to add, at a value reflection cannot build (a class, an enum
  /// with values).
  @_disfavoredOverload
  public init<R: _ReplayableReducer>(
    _ id: String,
    schema: FeatureSchema? = nil,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    reducer: @escaping @Sendable () -> R
  ) where R.State: Equatable {
    self.init(
      id, schema: schema ?? .of(R.State.self), dependencies: dependencies,
      reducer: { _ReflectedReducer(reducer()) })
  }

  /// The names of the other behaviours registered, which recordings may have been made with.
  public let behaviours: [String]

  private let makeShrink:
    @Sendable (
      Recording, ShrinkRequest, (ShrinkProgress) -> Void, () -> Bool
    ) throws -> ShrinkOutcome

  /// Shrinks a recording of this feature (see
  /// ``Timeline/shrink(to:keeping:recordedBy:metadata:source:progress:isCancelled:)``), with
  /// today's reducer and, for a divergence, the behaviour `request` names.
  public func shrink(
    _ recording: Recording,
    _ request: ShrinkRequest,
    progress: (ShrinkProgress) -> Void = { _ in },
    isCancelled: () -> Bool = { false }
  ) throws -> ShrinkOutcome {
    try self.makeShrink(recording, request, progress, isCancelled)
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

/// What to shrink a recording to, for ``ReplayFeature/shrink(_:_:progress:isCancelled:)``.
public struct ShrinkRequest: Sendable {
  /// Where to write the shrunk recording.
  public var url: URL
  /// How it must still fail.
  public var condition: ShrinkCondition
  /// The registered behaviour the recording was made with (``ReplayFeature/behaviours``).
  public var recordedWith: String?
  /// More header metadata for the shrunk recording.
  public var metadata: [String: String]
  /// The recording's file name, for the shrunk recording's header.
  public var source: String?

  /// Creates a request.
  public init(
    url: URL, condition: ShrinkCondition, recordedWith: String? = nil,
    metadata: [String: String] = [:], source: String? = nil
  ) {
    self.source = source
    self.url = url
    self.condition = condition
    self.recordedWith = recordedWith
    self.metadata = metadata
  }
}
