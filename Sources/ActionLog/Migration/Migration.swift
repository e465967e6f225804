/// The steps that take a recording from one version of a feature's types to the next.
///
/// ```swift
/// Migration(from: 1, .addField("isLoading", default: false))
/// ```
public struct Migration: Sendable {
  /// The version it migrates from; it leaves a recording at `version + 1`.
  public let version: Int
  /// What it changes, in order.
  public let steps: [MigrationStep]

  /// A migration from `version` to `version + 1`.
  public init(from version: Int, _ steps: MigrationStep...) {
    self.init(from: version, steps: steps)
  }

  /// A migration from `version` to `version + 1`.
  public init(from version: Int, steps: [MigrationStep]) {
    self.version = version
    self.steps = steps
  }
}

/// A feature's schema: its current version, and the migrations that bring an older recording to
/// it. A recording without a version is at version 1.
///
/// Migrations run on a record's JSON when it is read, only for recordings older than the code;
/// the file is never changed (`replay migrate` writes a migrated copy).
public struct FeatureSchema: Sendable {
  /// The version of the feature's types today.
  public let version: Int
  /// Migrations from each older version to the next.
  public let migrations: [Migration]

  /// A schema at `version`, with the migrations from older versions.
  public init(version: Int, migrations: [Migration] = []) {
    self.version = version
    self.migrations = migrations
  }

  /// Version 1 and no migrations: a feature that never declared one.
  public static let initial = FeatureSchema(version: 1)

  /// The steps that bring a recording at `recorded` to ``version``, in order.
  ///
  /// - Throws: ``MigrationError`` when the recording is newer than the code, a migration is
  ///   missing between the two, or one is registered twice.
  public func steps(from recorded: Int) throws(MigrationError) -> [MigrationStep] {
    guard recorded >= 1 else { throw .invalidVersion(recorded) }
    guard recorded <= self.version else {
      throw .newerThanCode(recorded: recorded, current: self.version)
    }
    var steps: [MigrationStep] = []
    for version in recorded..<self.version {
      let found = self.migrations.filter { $0.version == version }
      guard found.count == 1 else {
        throw found.isEmpty
          ? .missingMigration(from: version, recorded: recorded, current: self.version)
          : .duplicateMigration(from: version)
      }
      steps += found[0].steps
    }
    return steps
  }
}

/// A feature's state type that declares the feature's schema: its recorder writes the version,
/// and `Timeline`, `ReplayFeature` and `assertReplay` read older recordings through its
/// migrations, without being told.
///
/// ```swift
/// extension Todos.State: SchemaVersioned {
///   static let schema = FeatureSchema(version: 2, migrations: [
///     Migration(from: 1, .addField("priority", default: 0, in: "todos[*]")),
///   ])
/// }
/// ```
public protocol SchemaVersioned {
  /// The feature's schema.
  static var schema: FeatureSchema { get }
}

extension FeatureSchema {
  /// The schema `State` declares, or ``initial``.
  public static func of<State>(_ state: State.Type) -> FeatureSchema {
    (state as? any SchemaVersioned.Type)?.schema ?? .initial
  }
}

/// Why a recording cannot be brought to today's version.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The recording was made by newer code than this.
  case newerThanCode(recorded: Int, current: Int)
  /// No migration from `from` to the next version is registered.
  case missingMigration(from: Int, recorded: Int, current: Int)
  /// Two migrations from the same version.
  case duplicateMigration(from: Int)
  /// A version below 1 in a header.
  case invalidVersion(Int)
  /// A step that cannot be applied: a path that does not parse, a default that does not encode.
  case invalidStep(String, problem: String)
  /// A custom step threw.
  case stepFailed(String, record: Int, offset: Int, reason: String)

  public var description: String {
    switch self {
    case let .newerThanCode(recorded, current):
      """
      This recording is at version \(recorded) of the feature, and this code knows versions up \
      to \(current): it was made by newer code. Open it with that code; a recording is never \
      read by guessing what a newer version meant.
      """
    case let .missingMigration(from, recorded, current):
      """
      This recording is at version \(recorded) of the feature, and the code at version \
      \(current), but no migration from version \(from) to \(from + 1) is registered: add \
      Migration(from: \(from), …) to the feature's migrations.
      """
    case let .duplicateMigration(from):
      "Two migrations from version \(from) are registered: keep one, with all its steps."
    case let .invalidVersion(version):
      "The recording's header says it is at version \(version): versions count from 1."
    case let .invalidStep(step, problem):
      "The migration step \(step) cannot be applied: \(problem)."
    case let .stepFailed(step, record, offset, reason):
      """
      The migration step \(step) failed on record \(record) (byte offset \(offset)): \(reason)
      """
    }
  }
}

extension LogHeader {
  /// The steps that bring a recording with this header to `schema`'s version.
  ///
  /// - Throws: ``MigrationError`` when the recording is newer, a migration is missing, or a
  ///   step cannot be applied.
  func steps(to schema: FeatureSchema) throws(MigrationError) -> [MigrationStep] {
    let steps = try schema.steps(from: self.schemaVersion)
    for step in steps {
      if let problem = step.problem { throw .invalidStep(step.description, problem: problem) }
    }
    return steps
  }
}
