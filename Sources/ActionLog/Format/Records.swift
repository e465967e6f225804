import Foundation

// The on-disk shape of each record kind. Keys are chosen so that, sorted, "kind" comes first and
// "seq" second: a reader finds both in a short prefix of the line without parsing the rest.

/// The header record's fields.
struct HeaderRecord<State> {
  var actionType: String
  var checkpointInterval: Int
  var feature: String
  var format: Int
  var initialState: State
  var kind: String
  /// `1` when every action record says what effects its reducer returned (`yields`).
  var ledger: Int?
  var metadata: [String: String]
  /// Written only for a migrated recording.
  var migrated: AppliedMigration?
  var redacted: RedactionManifest?
  /// The feature's schema version; written only when above 1.
  var schema: Int?
  var startedAt: String
  var stateType: String
  /// `1` when every action record says what the action changed in the state (`update`).
  var updates: Int?
}

extension HeaderRecord {
  /// The record of `header`, holding `initialState`.
  init(_ header: LogHeader, initialState: State) {
    self.init(
      actionType: header.actionType,
      checkpointInterval: header.checkpointInterval,
      feature: header.feature,
      format: header.format,
      initialState: initialState,
      kind: RecordKind.header.rawValue,
      ledger: header.hasEffectLedger ? 1 : nil,
      metadata: header.metadata,
      migrated: header.migration,
      redacted: header.redactions.manifest,
      schema: header.schemaVersion == 1 && header.migration == nil ? nil : header.schemaVersion,
      startedAt: header.startedAtText,
      stateType: header.stateType,
      updates: header.hasStepUpdates ? 1 : nil
    )
  }
}

/// An action record's fields.
struct ActionRecord<Action> {
  var kind: String
  var seq: Int
  var source: String
  var time: Int64
  var trigger: Int?
  var uses: CapturedValues?
  var value: Action
  /// What the reducer returned, when the header has a ledger and it was not `none`. NB: Its
  /// key sorts after the envelope's (kind, seq, source, time, trigger), which a scan reads
  /// without decoding.
  var yields: JSONValue?
  /// What the action changed in the state, when the header has step updates and it changed
  /// something: RFC 6902 operations. NB: Its key sorts after the envelope's too.
  var update: [JSONPatchOperation]?
  /// The number of the site record that says which source line sent the action, when known.
  /// NB: Its key sorts after the envelope's too.
  var via: Int? = nil
}

/// A checkpoint record's fields.
struct CheckpointRecord<State> {
  var kind: String
  var seq: Int
  var value: State
}

extension HeaderRecord: Encodable where State: Encodable {}
extension HeaderRecord: Decodable where State: Decodable {}
extension ActionRecord: Encodable where Action: Encodable {}
extension ActionRecord: Decodable where Action: Decodable {}
extension CheckpointRecord: Encodable where State: Encodable {}
extension CheckpointRecord: Decodable where State: Decodable {}

/// A shared record's fields: either `where` (the places of a state that share each value),
/// `shared`, `source` and `value` (a value's change), or `source` `parent` and `update` (what
/// the rest of the app wrote into the state).
struct SharedRecord<Value> {
  var kind: String
  var seq: Int
  var shared: String?
  var source: String?
  var value: Value?
  var `where`: [String: [String]]?
  /// `"action"` when `where` lists the places of the values action `seq` carries, rather than
  /// of the state after it.
  var of: String? = nil
  /// With `"source": "parent"`: what the rest of the app wrote into the recorded state after
  /// action `seq`, as RFC 6902 operations (a child's recording cut from an app's).
  var update: [JSONPatchOperation]? = nil
}

extension SharedRecord: Encodable where Value: Encodable {}
extension SharedRecord: Decodable where Value: Decodable {}

/// A site record's fields: the source line (`Module/File.swift:80`) that action records with
/// `"via": site` were sent from. Written once per file, before the first action that names it.
struct SiteRecord: Codable {
  var kind: String
  var site: Int
  var `where`: String
}

/// A note record's fields.
struct NoteRecord: Codable {
  var kind: String
  var seq: Int
  var text: String
  /// `"action"` when the note stands in for the action `seq`, which could not be recorded.
  var unrecorded: String?
}

/// An end record's fields.
struct EndRecord: Codable {
  var kind: String
  var seq: Int
  var time: Int64
}

/// The fields every record except the header starts with.
struct RecordPrefix: Decodable {
  var kind: String
  var seq: Int?
}

/// A value that decodes from any JSON, keeping nothing.
struct Skipped: Codable {
  init() {}
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encodeNil()
  }
}

/// A value of any `Encodable` type, so the writer can hold values of types it does not know.
struct AnyEncodable: Encodable {
  let value: any Encodable

  func encode(to encoder: any Encoder) throws {
    try self.value.encode(to: encoder)
  }
}
