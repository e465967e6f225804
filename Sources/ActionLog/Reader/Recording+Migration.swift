#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
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
    let fields: [(MigrationStep.Part, String)]
    switch part {
    case .header: fields = [(.states, "initialState")]
    case .checkpoint: fields = [(.states, "value")]
    case .action: fields = [(.actions, "value"), (.dependencies, "uses")]
    }
    // NB: Only the fields the steps change are parsed and written again; the rest of the
    // record (an action's update, its effects) keeps its bytes.
    let kinds = Set(steps.map(\.part))
    // NB: A record that holds none of the keys its steps rename or remove is left as it is.
    let relevant = steps.filter { step in fields.contains { $0.0 == step.part } }
    let needles = relevant.map(\.needle)
    if !needles.contains(where: { $0 == nil }),
      !needles.contains(where: { Self.contains(payload, $0!) })
    {
      return Array(payload)
    }
    var output = Array(payload)
    var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
    guard let tape = try? JSONTape(payload), let root = tape.tokens.first, root.kind == .object
    else { return try self.migrateWhole(payload, fields: fields, line: line, steps: steps) }
    var member = 1
    var seen: Set<String> = []
    while member < Int(root.end) {
      let key = tape.tokens[member]
      let valueIndex = member + 1
      member = Int(tape.tokens[valueIndex].end)
      guard key.kind == .string else {
        return try self.migrateWhole(payload, fields: fields, line: line, steps: steps)
      }
      let name = String(
        decoding: UnsafeRawBufferPointer(
          rebasing: payload[Int(key.start)..<Int(key.start) + Int(key.length)]),
        as: UTF8.self)
      // NB: The first of two members of the same name is the one a decoder reads.
      guard !seen.contains(name) else { continue }
      seen.insert(name)
      guard let (kind, _) = fields.first(where: { $0.1 == name }), kinds.contains(kind) else {
        continue
      }
      let token = tape.tokens[valueIndex]
      let isString = token.kind == .string || token.kind == .escapedString
      let start = Int(token.start) - (isString ? 1 : 0)
      let end = Int(token.start) + Int(token.length) + (isString ? 1 : 0)
      var value = try JSONValue.parse(UnsafeRawBufferPointer(rebasing: payload[start..<end]))
      try Self.apply(steps, of: kind, to: &value, line: line)
      replacements.append((start..<end, value.bytes))
    }
    for replacement in replacements.reversed() {
      output.replaceSubrange(replacement.range, with: replacement.bytes)
    }
    return output
  }

  /// Whether `bytes` holds `needle`.
  static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
    guard let base = bytes.baseAddress, !needle.isEmpty else { return needle.isEmpty }
    return needle.withUnsafeBytes { needle in
      let first = Int32(needle[0])
      var offset = 0
      while offset + needle.count <= bytes.count {
        guard let found = memchr(base + offset, first, bytes.count - offset - needle.count + 1)
        else { return false }
        let at = base.distance(to: UnsafeRawPointer(found))
        if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return true }
        offset = at + 1
      }
      return false
    }
  }

  /// ``migrate(_:part:line:steps:)`` by parsing the whole record, for a record the tape does
  /// not read as an object of plain keys.
  private func migrateWhole(
    _ payload: UnsafeRawBufferPointer, fields: [(MigrationStep.Part, String)], line: LineRange,
    steps: [MigrationStep]
  ) throws -> [UInt8] {
    var record = try JSONValue.parse(payload)
    for (kind, field) in fields {
      guard var value = record[field] else { continue }
      try Self.apply(steps, of: kind, to: &value, line: line)
      record[field] = value
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
