import ActionLogScan
import Foundation

// A recording read through migrations: the steps applied to each record's values before they
// are decoded, and a failure to decode read as a change of the feature's types.

extension Recording {
  /// Which record a line holds, for the migration steps that apply to it.
  enum RecordPart {
    case header, action, checkpoint
  }

  /// This recording as `schema`'s version of the feature reads it: every state, action and
  /// captured value goes through the migrations from the recording's version before it is
  /// decoded. The recording itself when it is at that version already.
  ///
  /// - Throws: ``MigrationError`` when the recording is newer than `schema`, or a migration on
  ///   the way is missing.
  public func migrated(to schema: FeatureSchema) throws(MigrationError) -> Recording {
    let steps = try self.header.steps(to: schema)
    return steps.isEmpty ? self : Recording(self, migrationSteps: steps)
  }

  /// The steps this recording's values go through when read, as Swift; empty when none.
  public var appliedMigrationSteps: [String] {
    self.migrationSteps.map(\.description)
  }

  /// The failure to decode a record read as a change of the feature's types, if it is one.
  func diagnose(
    _ error: DecodingError, in payload: UnsafeRawBufferPointer, part: RecordPart,
    valueType: Any.Type
  ) -> TypeChangeDiagnosis? {
    let record = try? self.codec.decode(JSONValue.self, from: payload)
    let field: String
    let kind: MigrationStep.Part
    switch part {
    case .header: (field, kind) = ("initialState", .states)
    case .checkpoint: (field, kind) = ("value", .states)
    case .action:
      let usesFailed = error.codingPath.first?.stringValue == "uses"
      (field, kind) = usesFailed ? ("uses", .dependencies) : ("value", .actions)
    }
    guard valueType != JSONText.self else { return nil }
    return TypeChangeDiagnosis(
      error, field: field, valueType: String(reflecting: valueType), part: kind, record: record)
  }

  /// A record's payload with the migration steps applied to its values.
  func migrate(
    _ payload: UnsafeRawBufferPointer, part: RecordPart, line: LineRange, steps: [MigrationStep]
  ) throws -> [UInt8] {
    var record = try JSONValue.parse(payload)
    func apply(_ kind: MigrationStep.Part, to field: String) throws {
      guard var value = record[field] else { return }
      try Self.apply(steps, of: kind, to: &value, line: line)
      record[field] = value
    }
    switch part {
    case .header: try apply(.states, to: "initialState")
    case .checkpoint: try apply(.states, to: "value")
    case .action:
      try apply(.actions, to: "value")
      try apply(.dependencies, to: "uses")
    }
    return record.bytes
  }

  /// Applies the steps of `part` to a value of a record.
  static func apply(
    _ steps: [MigrationStep], of part: MigrationStep.Part, to value: inout JSONValue,
    line: LineRange
  ) throws {
    for step in steps where step.part == part {
      do {
        try step.apply(to: &value)
      } catch let error as MigrationError {
        throw error
      } catch {
        throw MigrationError.stepFailed(
          step.description, record: line.record, offset: line.offset, reason: "\(error)")
      }
    }
  }

}
