import Foundation
import StepChanges

/// Writes a whole recording made of values already in JSON: a recording cut out of another one
/// (a child feature's, from an app's), which no store ran.
///
/// Records are appended in the order of the file; actions are numbered from 1 as they come.
/// ``write(to:fileSystem:)`` writes the file beside its name, syncs it, links it into place and
/// reads it back, as an export does: a failure leaves no file.
public struct RecordingComposer {
  /// An action, as its record holds it.
  public struct Action: Sendable {
    /// `send` or `effect`, and for an effect the number of the action whose effect sent it (in
    /// the new recording: an earlier action), when known.
    public var origin: RecordedOrigin?
    /// Nanoseconds since the new recording's start.
    public var time: Int64
    /// The dependency values the reducer read.
    public var uses: CapturedValues
    /// The action.
    public var value: JSONValue
    /// What it changed in the state, in a recording with step updates.
    public var update: [JSONPatchOperation]?
    /// What the reducer returned, in a recording with a ledger.
    public var yields: JSONValue?
    /// The number of the site record naming the line that sent it; `nil` when not known.
    public var site: Int?

    /// Creates an action; `origin` `nil` is an effect's action whose trigger is not in the
    /// recording.
    public init(
      origin: RecordedOrigin?, time: Int64, uses: CapturedValues = CapturedValues(),
      value: JSONValue, update: [JSONPatchOperation]? = nil, yields: JSONValue? = nil,
      site: Int? = nil
    ) {
      self.origin = origin
      self.time = time
      self.uses = uses
      self.value = value
      self.update = update
      self.yields = yields
      self.site = site
    }
  }

  /// The header, which may change until the recording is written (its metadata, say).
  public var header: LogHeader
  private let initialState: JSONValue
  private let codec: any RecordCodec
  private var output: [UInt8] = []
  private var records = 0
  /// The number of actions appended.
  public private(set) var count = 0
  /// The `via` of the last action written since the last checkpoint.
  private var lastVia: Int?

  /// Starts a recording with `header` (its ``LogHeader/hasStepUpdates`` says whether actions
  /// carry `update`) and `initialState`.
  public init(
    header: LogHeader, initialState: JSONValue, codec: any RecordCodec = CompactJSONCodec()
  ) {
    self.header = header
    self.initialState = initialState
    self.codec = codec
  }

  private mutating func append(_ payload: [UInt8]) {
    Framing.append(payload: payload, to: &self.output)
    self.records += 1
  }

  /// Appends the site record numbered `number`, for the line `site`.
  public mutating func appendSite(_ number: Int, _ site: CallSite) throws {
    self.append(
      try self.codec.encode(
        SiteRecord(kind: RecordKind.site.rawValue, site: number, where: site.qualifiedDescription)))
  }

  /// Appends the next action.
  public mutating func appendAction(_ action: Action) throws {
    self.count += 1
    let (via, last) = SiteNumbers.via(forNumber: action.site ?? 0, after: self.lastVia)
    self.lastVia = last
    var trigger: Int?
    if case let .effect(parent) = action.origin { trigger = parent }
    let record = ActionRecord(
      kind: RecordKind.action.rawValue, seq: self.count,
      source: action.origin.map { if case .send = $0 { "send" } else { "effect" } } ?? "effect",
      time: action.time, trigger: trigger,
      uses: action.uses.isEmpty ? nil : action.uses, value: action.value,
      yields: self.header.hasEffectLedger ? action.yields : nil,
      update: self.header.hasStepUpdates && action.update?.isEmpty == false
        ? action.update : nil,
      via: via)
    self.append(try self.codec.encode(record))
  }

  /// Appends a checkpoint: `state` after the last action appended.
  public mutating func appendCheckpoint(_ state: JSONValue) throws {
    self.append(
      try self.codec.encode(
        CheckpointRecord(kind: RecordKind.checkpoint.rawValue, seq: self.count, value: state)))
    self.lastVia = nil
  }

  /// Appends a shared record after the last action appended.
  public mutating func appendShared(_ change: RecordedShared.Change) throws {
    let kind = RecordKind.shared.rawValue
    let record: SharedRecord<JSONValue> =
      switch change {
      case let .places(places):
        SharedRecord(kind: kind, seq: self.count, where: places)
      case let .actionPlaces(places):
        SharedRecord(kind: kind, seq: self.count, where: places, of: RecordKind.action.rawValue)
      case let .value(name, source, value):
        SharedRecord(
          kind: kind, seq: self.count, shared: name, source: source.rawValue, value: value)
      case let .stateWritten(update):
        SharedRecord(
          kind: kind, seq: self.count, source: RecordedShared.parentSource, update: update)
      }
    self.append(try self.codec.encode(record))
  }

  /// Appends a note after the last action appended.
  public mutating func appendNote(_ text: String) throws {
    self.append(
      try self.codec.encode(NoteRecord(kind: RecordKind.note.rawValue, seq: self.count, text: text))
    )
  }

  /// Ends the recording (its `end` record, at `time`), writes it to `url`, which must not exist,
  /// and reads it back.
  ///
  /// - Throws: ``ActionLogError/fileExists(path:)``, ``ActionLogError/writeFailed(path:reason:)``.
  public mutating func write(
    to url: URL, endingAt time: Int64, fileSystem: any LogFileSystem = .posix
  ) throws -> Recording {
    self.append(
      try self.codec.encode(EndRecord(kind: RecordKind.end.rawValue, seq: self.count, time: time)))
    var whole: [UInt8] = []
    Framing.append(
      payload: try self.codec.encode(HeaderRecord(self.header, initialState: self.initialState)),
      to: &whole)
    whole += self.output
    self.output = whole
    self.records += 1
    let file = try LogFile.create(
      url, header: self.output, fileSystem: fileSystem, syncsFirst: true)
    if let reason = file.close() {
      try? fileSystem.unlink(url.path)
      throw ActionLogError.writeFailed(path: url.path, reason: reason)
    }
    do {
      let written =
        fileSystem is POSIXFileSystem
        ? try Recording(contentsOf: url, codec: self.codec)
        : try Recording(data: Data(self.output), url: url, codec: self.codec)
      guard written.count == self.count, written.ending == .clean else {
        throw ActionLogError.writeFailed(
          path: url.path, reason: "it reads back as \(written.count) actions, \(written.ending)")
      }
      return written
    } catch {
      try? fileSystem.unlink(url.path)
      throw error
    }
  }

}
