import Foundation

/// What a recording says about itself in its first record.
public struct LogHeader: Sendable, Equatable {
  /// The format version the file was written with.
  public var format: Int
  /// The identifier of the recorded feature, which selects the reducer to replay it with.
  public var feature: String
  /// The name of the feature's state type, as the recorder saw it.
  public var stateType: String
  /// The name of the feature's action type, as the recorder saw it.
  public var actionType: String
  /// When recording started, on the wall clock.
  public var startedAt: Date
  /// How many actions apart the recorder writes checkpoints.
  public var checkpointInterval: Int
  /// Free-form facts about the app that recorded: version, platform, a description.
  public var metadata: [String: String]
  /// What the recorder replaced with placeholders: the header's manifest of redacted paths.
  public var redactions: Redactions
  /// The version of the feature's types the recording holds values of: 1 when the header says
  /// none (see ``FeatureSchema``).
  public var schemaVersion: Int
  /// How `replay migrate` brought the recording to ``schemaVersion``, if it did.
  public var migration: AppliedMigration?
  /// Whether each action record says what effects its reducer returned (an effect ledger); a
  /// recording made before ledgers has none.
  public var hasEffectLedger: Bool
  /// Whether each action record says what the action changed in the state (its `update`, a JSON
  /// Patch), so that every step's state can be rebuilt without the reducer; a recording made
  /// before step updates has none.
  public var hasStepUpdates: Bool

  /// Creates a header.
  public init(
    format: Int = LogFormat.version,
    feature: String,
    stateType: String,
    actionType: String,
    startedAt: Date,
    checkpointInterval: Int,
    metadata: [String: String] = [:],
    redactions: Redactions = .none,
    schemaVersion: Int = 1,
    migration: AppliedMigration? = nil,
    hasEffectLedger: Bool = false,
    hasStepUpdates: Bool = false
  ) {
    self.format = format
    self.feature = feature
    self.stateType = stateType
    self.actionType = actionType
    self.startedAt = startedAt
    self.checkpointInterval = checkpointInterval
    self.metadata = metadata
    self.redactions = redactions
    self.schemaVersion = schemaVersion
    self.migration = migration
    self.hasEffectLedger = hasEffectLedger
    self.hasStepUpdates = hasStepUpdates
  }
}

/// What a migrated recording's header keeps of its migration: the version it was recorded at,
/// and the steps that brought it to the header's version.
public struct AppliedMigration: Codable, Sendable, Equatable {
  /// The version the recording was made at.
  public var from: Int
  /// The steps applied, as Swift: `.addField("isLoading", default: false)`.
  public var steps: [String]

  /// A migration record.
  public init(from: Int, steps: [String]) {
    self.from = from
    self.steps = steps
  }
}

extension LogHeader {
  /// The start time as written in the file: ISO 8601 with milliseconds, in UTC.
  /// ``startedAt`` as the header writes it: ISO 8601 in UTC with milliseconds.
  public var startedAtText: String {
    Self.makeFormatter().string(from: self.startedAt)
  }

  static func parseDate(_ text: String) -> Date? {
    Self.makeFormatter().date(from: text) ?? ISO8601DateFormatter().date(from: text)
  }

  private static func makeFormatter() -> ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter
  }
}
