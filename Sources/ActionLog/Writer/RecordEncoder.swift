import StepChanges

/// Turns what a writer is given into framed lines: encodes each record with the codec, hides
/// what the redactions name, and frames it (`CRC32C`, a space, the payload, a newline).
///
/// It is the writer thread's own: nothing here is shared.
struct RecordEncoder {
  private let codec: any RecordCodec
  private let redactions: Redactions
  private let actionPaths: [RedactionPath]
  private let statePaths: [RedactionPath]
  private var placeholders = RedactionPlaceholders()
  private var lastActionSeq = 0
  /// The time of the last action appended.
  private(set) var lastTime: Duration = .zero
  /// The action before the file's first: a rolling recording's segment numbers its actions
  /// from 1, and an effect's trigger from before it is left out.
  var base = 0
  /// The compact codec, with its encoder kept from one record to the next.
  private let compact: (codec: CompactJSONCodec, writer: JSONStreamWriter)?
  /// Whether action records say what the action changed (the header's step updates).
  private var writesUpdates = false
  /// The state after the last action, as written (redacted JSON): what the next `update` is
  /// from. `nil` when it is not known, after a state that could not be encoded.
  private var lastState: (text: [UInt8], tokens: [JSONTape.Token])?
  /// The state after the last action, as given: what the next `update` is worked out from when
  /// its type's generated code can (``StepChanges/_StepChanging``).
  private var lastValue: (any Encodable & Sendable)?
  /// Whether updates are worked out from the values where their types allow.
  private let changesFromValues: Bool
  /// The numbers of the source lines actions were sent from.
  private var sites = SiteNumbers()

  /// The sizes of the last state encoded whole and of the last action record, in bytes: what
  /// the writer counts a waiting state and action to hold.
  private(set) var sizes = (state: 4_096, action: 256)

  /// Told when a record could not be encoded and a note replaced it.
  let onEncodingFailure: (@Sendable (String) -> Void)?

  init(
    codec: any RecordCodec, redactions: Redactions,
    onEncodingFailure: (@Sendable (String) -> Void)?, changesFromValues: Bool = true
  ) {
    self.changesFromValues = changesFromValues
    self.codec = codec
    self.compact = (codec as? CompactJSONCodec).map { ($0, JSONStreamWriter()) }
    self.redactions = redactions
    self.actionPaths = redactions.actions.map { $0.under("value") }
    self.statePaths = redactions.state.map { $0.under("value") }
    self.onEncodingFailure = onEncodingFailure
  }

  /// The header line: what the recording is, and the initial state, redacted.
  mutating func header(
    _ header: LogHeader, initialState: some Encodable & Sendable
  ) throws -> [UInt8] {
    let record = HeaderRecord(header, initialState: AnyEncodable(value: initialState))
    var payload = try self.codec.encode(record)
    self.sizes.state = payload.count
    if !header.redactions.state.isEmpty {
      payload = try JSONRewriter.redact(
        payload,
        paths: header.redactions.state.map { $0.under("initialState") },
        placeholders: &self.placeholders
      )
    }
    self.sites.startFile()
    self.writesUpdates = header.hasStepUpdates
    if self.writesUpdates {
      self.lastValue = initialState
      self.lastState = try? {
        let text = try self.stateJSON(initialState)
        return (text, try JSONValue.tokens(of: text))
      }()
    }
    var line: [UInt8] = []
    Framing.append(payload: payload, to: &line)
    return line
  }

  /// Counts an action that was dropped rather than written (a rolling recording's gap): the
  /// next segment's time still moves on with the session's.
  mutating func skip(actionAt time: Duration) {
    self.lastTime = max(self.lastTime, time)
  }

  /// Appends an entry's line to `buffer`; a note in its place when it cannot be encoded.
  mutating func append(_ entry: LogWriter.Entry, to buffer: inout [UInt8]) {
    let start = buffer.count
    defer {
      switch entry {
      case .action: self.sizes.action = buffer.count - start
      case .checkpoint: self.sizes.state = buffer.count - start
      case .note, .shared: break
      }
    }
    switch entry {
    case let .action(globalSeq, time, origin, value, captured, effects, state, site):
      let seq = globalSeq - self.base
      self.lastActionSeq = seq
      self.lastTime = time
      let parent: Int? = if case let .effect(parent) = origin { parent - self.base } else { nil }
      let trigger = parent.flatMap { $0 > 0 ? $0 : nil }
      let update = self.update(after: seq, state: state, notesTo: &buffer)
      var number: Int?
      if let site {
        let named = self.sites.number(for: site)
        number = named.number
        if let record = named.record, let payload = try? self.codec.encode(record) {
          Framing.append(payload: payload, to: &buffer)
        }
      }
      let (via, lastVia) = self.sites.via(forNumber: number)
      let record = ActionRecord(
        kind: RecordKind.action.rawValue,
        seq: seq,
        source: parent == nil ? "send" : "effect",
        time: time.nanoseconds,
        trigger: trigger,
        uses: captured.isEmpty ? nil : captured,
        value: AnyEncodable(value: value),
        yields: effects?(),
        update: update,
        via: via
      )
      do {
        if self.actionPaths.isEmpty {
          try self.appendFramed(record, to: &buffer)
        } else {
          let payload = try self.redacted(self.codec.encode(record), self.actionPaths)
          Framing.append(payload: payload, to: &buffer)
        }
        self.sites.wrote(via: lastVia)
      } catch {
        let text = "action \(seq) could not be encoded: \(EncodingFailure.describe(error))"
        self.onEncodingFailure?(text)
        self.appendNote(seq: seq, text: text, unrecorded: "action", to: &buffer)
      }

    case let .checkpoint(globalSeq, state):
      let seq = globalSeq - self.base
      let record = CheckpointRecord(
        kind: RecordKind.checkpoint.rawValue, seq: seq, value: AnyEncodable(value: state)
      )
      do {
        if self.statePaths.isEmpty {
          try self.appendFramed(record, to: &buffer)
        } else {
          let payload = try self.redacted(self.codec.encode(record), self.statePaths)
          Framing.append(payload: payload, to: &buffer)
        }
        self.sites.wroteCheckpoint()
      } catch {
        let text =
          "the checkpoint after action \(seq) could not be encoded: \(EncodingFailure.describe(error))"
        self.onEncodingFailure?(text)
        self.appendNote(seq: seq, text: text, unrecorded: "checkpoint", to: &buffer)
      }

    case let .note(globalSeq, text):
      self.appendNote(seq: max(0, globalSeq - self.base), text: text, unrecorded: nil, to: &buffer)

    case let .shared(globalSeq, entry):
      let seq = max(0, globalSeq - self.base)
      do {
        let record: SharedRecord<AnyEncodable>
        switch entry {
        case .places(let places), .actionPlaces(let places):
          let isAction = if case .actionPlaces = entry { true } else { false }
          record = SharedRecord<AnyEncodable>(
            kind: RecordKind.shared.rawValue, seq: seq, shared: nil, source: nil, value: nil,
            where: places, of: isAction ? RecordKind.action.rawValue : nil)
        case let .value(name, source, value):
          // NB: A state's redaction paths do not reach into a shared value written on its own:
          // in a recording that redacts state, the whole value is hidden.
          let hidden = !self.statePaths.isEmpty
          var written: any Encodable = value
          if hidden { written = RedactedSharedValue() }
          record = SharedRecord<AnyEncodable>(
            kind: RecordKind.shared.rawValue, seq: seq, shared: name, source: source.rawValue,
            value: AnyEncodable(value: written), where: nil)
        }
        try self.appendFramed(record, to: &buffer)
      } catch {
        let text =
          "a shared value's change after action \(seq) could not be encoded: \(EncodingFailure.describe(error))"
        self.onEncodingFailure?(text)
        self.appendNote(seq: seq, text: text, unrecorded: nil, to: &buffer)
      }
    }
  }

  /// What action `seq` changed, from the last state to `state`: `nil` when nothing changed
  /// or updates are not written. A state that cannot be encoded gets a note, and the next one
  /// replaces the whole document.
  private mutating func update(
    after seq: Int, state: (any Encodable & Sendable)?, notesTo buffer: inout [UInt8]
  ) -> [JSONPatchOperation]? {
    guard self.writesUpdates, let state else { return nil }
    defer { self.lastValue = state }
    if let operations = self.changesFromValues(to: state) {
      // NB: The text is worked out again only if a later state needs it.
      self.lastState = nil
      return operations.isEmpty ? nil : operations
    }
    if self.lastState == nil, let last = self.lastValue, let text = try? self.stateJSON(last),
      let tokens = try? JSONValue.tokens(of: text)
    {
      self.lastState = (text, tokens)
    }
    let next: (text: [UInt8], tokens: [JSONTape.Token])
    let operations: [JSONPatchOperation]
    do {
      let text = try self.stateJSON(state)
      // NB: Compared as text, the last state's tape kept: only what differs is parsed.
      if let last = self.lastState {
        let changes = try JSONValue.changes(from: last, to: text)
        (next, operations) = ((text, changes.tokens), changes.operations)
      } else {
        next = (text, try JSONValue.tokens(of: text))
        operations = [JSONPatchOperation(.replace, [], try JSONValue.parse(text))]
      }
    } catch {
      if case .some = self.lastState {
        let text =
          "the state after action \(seq) could not be encoded, so its update is not recorded: \(EncodingFailure.describe(error))"
        self.onEncodingFailure?(text)
        self.appendNote(seq: seq - 1, text: text, unrecorded: nil, to: &buffer)
      }
      self.lastState = nil
      return nil
    }
    self.lastState = next
    return operations.isEmpty ? nil : operations
  }

  /// What changed from the last state to `state`, worked out from the values by their types'
  /// generated code, visiting only what differs; `nil` where it cannot be: a type without it,
  /// redaction (which works on the text), a value that does not encode.
  private func changesFromValues(to state: any Encodable & Sendable) -> [JSONPatchOperation]? {
    guard self.changesFromValues, self.redactions.state.isEmpty, let last = self.lastValue,
      type(of: last) == type(of: state)
    else { return nil }
    return JSONPatchOperation.changes(from: last, to: state, codec: self.codec)
  }

  /// A state as the recording holds it: encoded and redacted, as JSON.
  private mutating func stateJSON(_ state: some Encodable & Sendable) throws -> [UInt8] {
    // NB: Through the encoder kept for records, as the record after it will be.
    var bytes: [UInt8] = []
    try self.encode(AnyEncodable(value: state), appendingTo: &bytes)
    if !self.redactions.state.isEmpty {
      self.placeholders.countsHits = false
      defer { self.placeholders.countsHits = true }
      bytes = try JSONRewriter.redact(
        bytes, paths: self.redactions.state, placeholders: &self.placeholders)
    }
    return bytes
  }

  /// Appends what closes a recording: a note for each redaction path that matched nothing, and
  /// the `end` record at `time` (by default the last action's).
  ///
  /// A segment that another follows ends without the notes: the session's last segment has them.
  mutating func appendEnding(
    at time: Duration?, to buffer: inout [UInt8], notesUnmatched: Bool = true
  ) {
    let unmatched = notesUnmatched ? self.unmatchedRedactions : .none
    for path in unmatched.state {
      let text = "the state redaction path \(path) matched no value"
      self.appendNote(seq: self.lastActionSeq, text: text, unrecorded: nil, to: &buffer)
    }
    for path in unmatched.actions {
      let text = "the action redaction path \(path) matched no value"
      self.appendNote(seq: self.lastActionSeq, text: text, unrecorded: nil, to: &buffer)
    }
    let end = EndRecord(
      kind: RecordKind.end.rawValue,
      seq: self.lastActionSeq,
      time: (time ?? self.lastTime).nanoseconds
    )
    if let payload = try? self.codec.encode(end) {
      Framing.append(payload: payload, to: &buffer)
    }
  }

  /// The redaction paths that matched no value so far.
  var unmatchedRedactions: Redactions {
    let hits = self.placeholders.hits
    return Redactions(
      statePaths: self.redactions.state.filter { hits[$0.description] == nil },
      actionPaths: self.redactions.actions.filter { hits[$0.description] == nil }
    )
  }

  /// Appends a record's JSON to `buffer`; on a throw, `buffer` is as it was.
  private func encode<T: Encodable>(_ record: T, appendingTo buffer: inout [UInt8]) throws {
    try Self.encode(record, appendingTo: &buffer, codec: self.codec, compact: self.compact)
  }

  /// Appends a framed record: its JSON, written in place.
  private func appendFramed<T: Encodable>(_ record: T, to buffer: inout [UInt8]) throws {
    // NB: The closure holds the two codecs, not a copy of the whole encoder.
    let (codec, compact) = (self.codec, self.compact)
    try Framing.append(to: &buffer) {
      try Self.encode(record, appendingTo: &$0, codec: codec, compact: compact)
    }
  }

  /// Appends a framed record whose type has generated code, which writes it directly.
  private func appendFramed<T: Encodable & _JSONEncodable>(
    _ record: T, to buffer: inout [UInt8]
  ) throws {
    guard let compact = self.compact else {
      let codec = self.codec
      return try Framing.append(to: &buffer) { try codec.encode(record, appendingTo: &$0) }
    }
    try Framing.append(to: &buffer) {
      try compact.codec.encode(record, appendingTo: &$0, with: compact.writer)
    }
  }

  private static func encode<T: Encodable>(
    _ record: T, appendingTo buffer: inout [UInt8], codec: any RecordCodec,
    compact: (codec: CompactJSONCodec, writer: JSONStreamWriter)?
  ) throws {
    if let compact {
      try compact.codec.encode(record, appendingTo: &buffer, with: compact.writer)
    } else {
      try codec.encode(record, appendingTo: &buffer)
    }
  }

  private mutating func redacted(
    _ payload: [UInt8], _ paths: [RedactionPath]
  ) throws -> [UInt8] {
    paths.isEmpty
      ? payload : try JSONRewriter.redact(payload, paths: paths, placeholders: &self.placeholders)
  }

  /// What a recording that redacts state writes for a shared value.
  private struct RedactedSharedValue: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode("‹redacted shared value›")
    }
  }

  private func appendNote(
    seq: Int, text: String, unrecorded: String?, to buffer: inout [UInt8]
  ) {
    let note = NoteRecord(
      kind: RecordKind.note.rawValue, seq: seq, text: text, unrecorded: unrecorded
    )
    // NB: A note holds only a string and integers, which always encode.
    if let payload = try? self.codec.encode(note) {
      Framing.append(payload: payload, to: &buffer)
    }
  }
}
