// NB: Over 400 lines on purpose: one export, record kind by record kind, each renumbered,
// migrated and redacted in the same pass.

import ActionLogScan
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How ``Recording/export(to:options:)`` writes a recording anew, as an attachment.
public struct ExportOptions: Sendable {
  /// Facts added to the header's metadata (replacing values of the same key; an empty value
  /// removes the key): app version, operating system, a description of what went wrong.
  public var metadata: [String: String]
  /// More to redact, on top of what the recorder redacted.
  public var redactions: Redactions
  /// Where to cut, to keep only the last actions; `nil` keeps them all.
  public var cut: Cut?
  /// Brings every value to this schema's version on the way (`replay migrate`): the header
  /// then says the new version, and keeps the original one and the steps applied.
  public var schema: FeatureSchema?
  /// States to write in place of the recorded checkpoints, as JSON, by the action they follow
  /// (`replay rerecord`). Only checkpoints the recording has are replaced.
  public var checkpointStates: [Int: [UInt8]]
  /// An effect ledger to write in place of the recorded one (`replay rerecord`): each action's
  /// `yields`, by sequence number; `nil` for none. The new recording then has a ledger, and an
  /// action missing here keeps what was recorded.
  public var effectLedger: [Int: JSONValue?]?
  /// Keeps only some actions (`replay shrink`), renumbered in order, with new checkpoints in
  /// place of the recorded ones; `nil` keeps them all. A ``cut`` is ignored with a subset.
  public var subset: Subset?
  /// Every file operation goes through it; the machine's own by default.
  public var fileSystem: any LogFileSystem

  /// Creates options.
  public init(
    metadata: [String: String] = [:], redactions: Redactions = .none, cut: Cut? = nil,
    schema: FeatureSchema? = nil, checkpointStates: [Int: [UInt8]] = [:],
    effectLedger: [Int: JSONValue?]? = nil, subset: Subset? = nil,
    fileSystem: any LogFileSystem = .posix
  ) {
    self.fileSystem = fileSystem
    self.metadata = metadata
    self.redactions = redactions
    self.cut = cut
    self.schema = schema
    self.checkpointStates = checkpointStates
    self.effectLedger = effectLedger
    self.subset = subset
  }

  /// The actions an export keeps when it keeps only some.
  ///
  /// Each keeps its time, dependency values and effects; an action an effect of a left-out
  /// action fed back loses its trigger. The recorded checkpoints are dropped, since their states
  /// followed every action: the subset brings its own.
  public struct Subset: Sendable {
    /// The actions kept, by their sequence numbers in the recording, in increasing order.
    public var actions: [Int]
    /// The checkpoints to write, as JSON, by the kept action they follow (its number in the
    /// recording).
    public var checkpointStates: [Int: [UInt8]]

    /// Creates a subset.
    public init(actions: [Int], checkpointStates: [Int: [UInt8]] = [:]) {
      self.actions = actions
      self.checkpointStates = checkpointStates
    }
  }

  /// A cut: the actions up to and including ``after`` are left out, and the state after it
  /// becomes the initial state.
  public struct Cut: Sendable {
    /// The last action left out.
    public var after: Int
    /// The state after that action as JSON, when the caller computed it; `nil` takes the
    /// checkpoint recorded there, which must exist.
    public var state: [UInt8]?

    /// Creates a cut.
    public init(after: Int, state: [UInt8]? = nil) {
      self.after = after
      self.state = state
    }
  }
}

/// What ``Recording/export(to:options:)`` wrote.
public struct ExportSummary: Sendable, Equatable {
  /// The number of actions in the new recording.
  public var actions: Int
  /// The actions left out at the start by a cut.
  public var cutActions: Int
  /// The size of the new file in bytes.
  public var bytes: Int
  /// The number of records, the header included.
  public var records: Int
  /// How many strings and numbers the export's own redactions replaced.
  public var redactedValues: Int
  /// The export's redaction paths that matched nothing.
  public var unmatched: Redactions
  /// The new recording's header, as read back.
  public var header: LogHeader
  /// How the new recording ends, as read back.
  public var ending: RecordingEnding
}

extension Recording {
  /// Writes this recording to a new file, for attaching to a bug report: with more metadata,
  /// more redaction, and optionally only its last actions. What was damaged or torn is left out;
  /// records are renumbered after a cut, and times count from the cut.
  ///
  /// The file is written beside `url` and linked into place when whole, then read back: a
  /// failure leaves no file.
  ///
  /// Step updates (what each action changed) are kept while the states keep their shape, worked
  /// out again from each step's state when a migration or more redaction changes the states,
  /// and dropped when actions are left out.
  ///
  /// - Parameter stepStates: The state after each action, as JSON, asked for in order
  ///   (`replay rerecord`): the updates are worked out from them instead of the recorded ones.
  /// - Throws: ``ActionLogError/fileExists(path:)``, ``ActionLogError/writeFailed(path:reason:)``,
  ///   ``ActionLogError/noSuchCheckpoint(seq:)`` for a cut with no state where there is no
  ///   checkpoint, ``ActionLogError/noSuchAction(seq:count:)`` for a cut past the end.
  public func export(
    to url: URL, options: ExportOptions = ExportOptions(),
    stepStates: ((_ seq: Int) throws -> [UInt8])? = nil
  ) throws -> ExportSummary {
    let subset = options.subset?.actions
    let cut = subset == nil ? options.cut?.after ?? 0 : 0
    guard cut >= 0, cut <= self.count else {
      throw ActionLogError.noSuchAction(seq: cut, count: self.count)
    }
    if let subset {
      for (index, seq) in subset.enumerated()
      where seq < 1 || seq > self.count || index > 0 && seq <= subset[index - 1] {
        throw ActionLogError.noSuchAction(seq: seq, count: self.count)
      }
    }
    // The new number of a kept action.
    let renumbered: [Int: Int]? = subset.map {
      Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($0.element, $0.offset + 1) })
    }
    func newNumber(_ seq: Int) -> Int? {
      guard let renumbered else { return seq > cut ? seq - cut : nil }
      return renumbered[seq]
    }
    let kept = subset ?? Array(stride(from: cut + 1, through: self.count, by: 1))
    let steps = try options.schema.map { try self.header.steps(to: $0) } ?? []
    // NB: The recording's own paths name its types; written after the migration, they must
    // name today's. The export's own are today's already.
    let redactions = self.header.redactions.migrated(by: steps)
      .merging(options.redactions)
    let firstNumber =
      self.storage.withUnsafeBytes { RedactionPlaceholders.highestNumber(in: $0) } + 1
    var placeholders = RedactionPlaceholders(firstNumber: firstNumber)
    let statePaths = redactions.state.map { $0.under("value") }
    let actionPaths = redactions.actions.map { $0.under("value") }
    let cutTime = cut == 0 ? 0 : self.actionTime(at: cut - 1)
    // NB: A time the reader accepted may lie so far from the cut that the difference overflows
    // (a damaged record); the export saturates it rather than trap.
    func rebased(_ time: Int64) -> Int64 {
      let (difference, overflow) = time.subtractingReportingOverflow(cutTime)
      guard overflow else { return difference }
      return time < cutTime ? .min : .max
    }
    var output: [UInt8] = []
    var records = 0

    func append(_ payload: [UInt8]) {
      Framing.append(payload: payload, to: &output)
      records += 1
    }
    func rewriting(
      _ line: LineRange, replacing replacements: [String: [UInt8]],
      removing removals: Set<String> = [], appending additions: [(String, [UInt8])] = []
    ) throws -> [UInt8] {
      try self.storage.withUnsafeBytes {
        try JSONRewriter.rewritingMembers(
          of: UnsafeRawBufferPointer(
            rebasing: $0[line.payloadStart..<(line.payloadStart + line.payloadLength)]
          ),
          replacing: replacements,
          removing: removals,
          appending: additions
        )
      }
    }

    // Step updates are kept as recorded while the states keep their shape; worked out anew
    // from each step's state when a migration or more redaction changes the states; dropped
    // when actions are left out or the states are not the recorded ones.
    let keepsUpdates =
      options.subset == nil
      && (stepStates != nil
        || self.header.hasStepUpdates && options.checkpointStates.isEmpty)
    let recomputesUpdates =
      keepsUpdates
      && (stepStates != nil || !steps.isEmpty || !options.redactions.state.isEmpty)
    var rawState: (seq: Int, state: JSONValue)?
    if keepsUpdates, stepStates != nil {
      rawState = (0, try JSONValue.parse(try self.member("initialState", of: self.headerLine)))
    } else if keepsUpdates {
      rawState = try self.nearestRecordedState(atOrBefore: cut)
      rawState = (cut, try self.rawState(after: cut, from: rawState!))
    }
    /// A step's state as the export writes it: migrated and redacted.
    func written(_ raw: JSONValue, line: LineRange) throws -> JSONValue {
      var bytes = try Self.migrating(raw.bytes, .states, by: steps, line: line)
      placeholders.countsHits = false
      defer { placeholders.countsHits = true }
      bytes = try JSONRewriter.redact(bytes, paths: redactions.state, placeholders: &placeholders)
      return try JSONValue.parse(bytes)
    }
    var writtenState: JSONValue?
    if recomputesUpdates, let rawState {
      writtenState = try written(rawState.state, line: self.headerLine)
    }

    // The header.
    let initialState: [UInt8]
    if let rawState, cut > 0 {
      // The recording's own state at the cut, which its updates follow.
      initialState = rawState.state.bytes
    } else if let state = options.cut?.state, cut > 0 {
      initialState = state
    } else if cut > 0 {
      guard let line = self.checkpointLines[cut] else {
        throw ActionLogError.noSuchCheckpoint(seq: cut)
      }
      initialState = try self.member("value", of: line)
    } else {
      initialState = try self.member("initialState", of: self.headerLine)
    }
    let migratedState = try Self.migrating(initialState, .states, by: steps, line: self.headerLine)
    var metadata = self.header.metadata.merging(options.metadata) { $1 }.filter {
      !$0.value.isEmpty
    }
    // NB: A caller that knows better what the actions are (a session's report) says it itself.
    if cut > 0, options.metadata["cutFrom"] == nil {
      let left = cut == self.count ? "none" : "actions \(cut + 1)–\(self.count)"
      metadata["cutFrom"] = "\(left) of \(self.count), recorded from \(self.header.startedAtText)"
    }
    var header = self.header
    header.metadata = metadata
    header.redactions = redactions
    header.startedAt = self.header.startedAt.addingTimeInterval(Double(cutTime) / 1e9)
    if options.effectLedger != nil { header.hasEffectLedger = true }
    header.hasStepUpdates = keepsUpdates
    if let subset = options.subset, !subset.actions.isEmpty,
      subset.actions.allSatisfy({ subset.checkpointStates[$0] != nil })
    {
      header.checkpointInterval = 1
    }
    if let schema = options.schema, !steps.isEmpty {
      header.schemaVersion = schema.version
      header.migration = AppliedMigration(
        from: self.header.migration?.from ?? self.header.schemaVersion,
        steps: (self.header.migration?.steps ?? []) + steps.map(\.description)
      )
    }
    let headerRecord = HeaderRecord(header, initialState: Skipped())
    let headerPayload = try self.codec.encode(headerRecord).withUnsafeBytes {
      try JSONRewriter.rewritingMembers(of: $0, replacing: ["initialState": migratedState])
    }
    append(
      try JSONRewriter.redact(
        headerPayload, paths: redactions.state.map { $0.under("initialState") },
        placeholders: &placeholders
      )
    )

    // Notes, by the action they follow; a stand-in for an unrecorded action is written in its
    // place instead.
    var notes: [Int: [String]] = [:]
    for case let .note(seq, text) in self.warnings
    where newNumber(seq) != nil || (cut == 0 && seq == 0) {
      notes[seq, default: []].append(text)
    }
    for (seq, text) in self.unrecordedNotes where seq > cut {
      if let index = notes[seq]?.firstIndex(of: text) { notes[seq]?.remove(at: index) }
    }
    for text in notes[0] ?? [] where cut == 0 {
      append(try self.codec.encode(NoteRecord(kind: RecordKind.note.rawValue, seq: 0, text: text)))
    }
    // Every site record, each before the next kept action, as written: the actions keep their
    // numbers (`via`), and a record an action left out named comes before the next kept one.
    var sitesLeft = self.sites.lines[...]
    // What the last action written said its line was, since the last checkpoint written: an
    // action keeps its line, written out where the one before it in the new file differs.
    var lastVia: Int?
    func appendSites(before seq: Int?) throws {
      while let next = sitesLeft.first, seq.map({ next.after < $0 }) ?? true {
        sitesLeft.removeFirst()
        append(try rewriting(next.line, replacing: [:]))
      }
    }

    // Shared records, each written before the next kept action (as the number of the one
    // before it): a change between two kept actions still happens before the second. The
    // places of the state the export starts from are the last ones at or before it.
    // NB: The places of an action's values go with the action, under its new number.
    var actionPlaces: [Int: LineRange] = [:]
    var sharedLeft = try self.sharedLines.filter { shared in
      guard try self.sharedRecordHasActionPlaces(shared.line) else { return shared.seq >= cut }
      actionPlaces[shared.seq] = shared.line
      return false
    }[...]
    if cut > 0,
      !(try sharedLeft.contains { try $0.seq == cut && self.sharedRecordHasPlaces($0.line) }),
      let places = try self.sharedLines.last(where: {
        try $0.seq < cut && self.sharedRecordHasPlaces($0.line)
      })
    {
      append(try rewriting(places.line, replacing: ["seq": Array("0".utf8)]))
    }
    let hidesSharedValues = !options.redactions.state.isEmpty
    func appendShared(before seq: Int?, as number: Int) throws {
      while let next = sharedLeft.first, seq.map({ next.seq < $0 }) ?? true {
        sharedLeft.removeFirst()
        var replacements = ["seq": Array(String(number).utf8)]
        if hidesSharedValues, !(try self.sharedRecordHasPlaces(next.line)) {
          replacements["value"] = Array(#""‹redacted shared value›""#.utf8)
        }
        append(try rewriting(next.line, replacing: replacements))
      }
    }

    for seq in kept {
      let number = newNumber(seq) ?? seq
      try appendShared(before: seq, as: number - 1)
      try appendSites(before: seq)
      let line = self.actionLine(at: seq - 1)
      if line.length < 0 {
        let note = NoteRecord(
          kind: RecordKind.note.rawValue, seq: number,
          text: self.unrecordedNotes[seq] ?? "the action was not recorded",
          unrecorded: RecordKind.action.rawValue
        )
        append(try self.codec.encode(note))
      } else {
        let trigger = self.actionTrigger(at: seq - 1)
        var replacements = [
          "seq": Array(String(number).utf8),
          "time": Array(String(rebased(self.actionTime(at: seq - 1))).utf8),
        ]
        var removals: Set<String> = []
        var additions: [(String, [UInt8])] = []
        if let yields = options.effectLedger?[seq] {
          if let yields {
            // NB: Replaced where the record has it; otherwise appended, which keeps the keys
            // sorted, since `yields` sorts last among an action's.
            replacements["yields"] = yields.bytes
            additions.append(("yields", yields.bytes))
          } else {
            removals.insert("yields")
          }
        }
        if self.header.hasStepUpdates, !keepsUpdates {
          removals.insert("update")
        } else if recomputesUpdates, let raw = rawState, let before = writtenState {
          let after =
            try stepStates.map { try JSONValue.parse($0(seq)) }
            ?? self.rawState(after: seq, from: raw)
          rawState = (seq, after)
          let next = try written(after, line: line)
          writtenState = next
          let update = before.changes(to: next)
          if update.isEmpty {
            removals.insert("update")
          } else {
            let bytes = try self.codec.encode(update)
            replacements["update"] = bytes
            additions.append(("update", bytes))
          }
        }
        if self.hasCallSites {
          let (via, last) = SiteNumbers.via(
            forNumber: self.siteNumber(ofAction: seq), after: lastVia)
          lastVia = last
          if let via {
            replacements["via"] = Array(String(via).utf8)
            additions.append(("via", Array(String(via).utf8)))
          } else {
            removals.insert("via")
          }
        }
        if trigger > 0, let parent = newNumber(trigger) {
          replacements["trigger"] = Array(String(parent).utf8)
        } else if trigger > 0 {
          // The action whose effect sent this one was left out.
          removals.insert("trigger")
        }
        var rewritten = try rewriting(
          line, replacing: replacements, removing: removals, appending: additions)
        if !steps.isEmpty {
          rewritten = try rewritten.withUnsafeBytes {
            try self.migrate($0, part: .action, line: line, steps: steps)
          }
        }
        append(try JSONRewriter.redact(rewritten, paths: actionPaths, placeholders: &placeholders))
        if let places = actionPlaces[seq] {
          append(try rewriting(places, replacing: ["seq": Array(String(number).utf8)]))
        }
      }
      if let state = options.subset?.checkpointStates[seq], subset != nil {
        let record = try self.codec.encode(
          CheckpointRecord(kind: RecordKind.checkpoint.rawValue, seq: number, value: Skipped()))
        let written = try record.withUnsafeBytes {
          try JSONRewriter.rewritingMembers(of: $0, replacing: ["value": state])
        }
        append(try JSONRewriter.redact(written, paths: statePaths, placeholders: &placeholders))
        lastVia = nil
      } else if subset == nil, let checkpoint = self.checkpointLines[seq] {
        var replacements = ["seq": Array(String(number).utf8)]
        if let state = options.checkpointStates[seq] { replacements["value"] = state }
        var rewritten = try rewriting(checkpoint, replacing: replacements)
        if !steps.isEmpty, options.checkpointStates[seq] == nil {
          rewritten = try rewritten.withUnsafeBytes {
            try self.migrate($0, part: .checkpoint, line: checkpoint, steps: steps)
          }
        }
        append(try JSONRewriter.redact(rewritten, paths: statePaths, placeholders: &placeholders))
        lastVia = nil
      }
      for text in notes[seq] ?? [] {
        append(
          try self.codec.encode(
            NoteRecord(kind: RecordKind.note.rawValue, seq: number, text: text)))
      }
    }
    try appendShared(before: nil, as: kept.count)
    try appendSites(before: nil)
    if self.ending == .clean {
      let time = rebased(
        self.endTime ?? (self.count > 0 ? self.actionTime(at: self.count - 1) : 0))
      append(
        try self.codec.encode(
          EndRecord(kind: RecordKind.end.rawValue, seq: kept.count, time: time)
        )
      )
    }

    let fileSystem = options.fileSystem
    let file = try LogFile.create(url, header: output, fileSystem: fileSystem, syncsFirst: true)
    if let reason = file.close() {
      try? fileSystem.unlink(url.path)
      throw ActionLogError.writeFailed(path: url.path, reason: reason)
    }
    // Read it back: what was written must be what was meant.
    let written: Recording
    do {
      written =
        fileSystem is POSIXFileSystem
        ? try Recording(contentsOf: url, limits: self.limits, codec: self.codec)
        : try Recording(data: Data(output), url: url, limits: self.limits, codec: self.codec)
      guard written.count == kept.count,
        written.ending == (self.ending == .clean ? .clean : .unterminated)
      else {
        throw ActionLogError.writeFailed(
          path: url.path,
          reason: "it reads back as \(written.count) actions, \(written.ending)"
        )
      }
    } catch {
      try? fileSystem.unlink(url.path)
      throw error
    }
    let hits = placeholders.hits
    return ExportSummary(
      actions: written.count,
      cutActions: cut,
      bytes: output.count,
      records: records,
      redactedValues: (options.redactions.state + options.redactions.actions)
        .reduce(0) { $0 + (hits[$1.description] ?? 0) },
      unmatched: Redactions(
        statePaths: options.redactions.state.filter { hits[$0.description] == nil },
        actionPaths: options.redactions.actions.filter { hits[$0.description] == nil }
      ),
      header: written.header,
      ending: written.ending
    )
  }

  /// The last action to leave out so that an export fits in `limit` bytes, estimated from the
  /// index: 0 when the whole recording fits, ``count`` when not even the last action does.
  public func cutPoint(fittingIn limit: Int) -> Int {
    let end = self.byteCount
    let headerWithoutState = self.headerLine.payloadLength + 256
    func estimate(_ cut: Int) -> Int {
      guard cut < self.count else { return headerWithoutState }
      let checkpoint = self.checkpoint(atOrBefore: cut)
      let state =
        checkpoint == 0
        ? self.headerLine.payloadLength
        : (self.checkpointLines[checkpoint]?.payloadLength ?? 0)
      return headerWithoutState + state + (end - self.actionLine(at: cut).offset)
    }
    var low = 0
    var high = self.count
    while low < high {
      let middle = (low + high) / 2
      if estimate(middle) <= limit { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The raw JSON of a top-level member of a record.
  /// A value's JSON with `steps` of `part` applied.
  static func migrating(
    _ value: [UInt8], _ part: MigrationStep.Part, by steps: [MigrationStep], line: LineRange
  ) throws -> [UInt8] {
    guard steps.contains(where: { $0.part == part }) else { return value }
    var json = try JSONValue.parse(value)
    try Self.apply(steps, of: part, to: &json, line: line)
    return json.bytes
  }

  func member(_ name: String, of line: LineRange) throws -> [UInt8] {
    try self.storage.withUnsafeBytes { bytes in
      let payload = UnsafeRawBufferPointer(
        rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)]
      )
      guard let member = try JSONRewriter.members(of: payload).first(where: { $0.key == name })
      else {
        throw ActionLogError.undecodable(
          record: line.record, offset: line.offset, codingPath: name, reason: "the field is missing"
        )
      }
      return Array(payload[member.value])
    }
  }
}

extension Recording {
  /// Whether a shared record says where a state's values sit rather than how one changed.
  func sharedRecordHasPlaces(_ line: LineRange) throws -> Bool {
    let record = try self.sharedRecordFields(line)
    return record.where != nil && record.of == nil
  }

  /// Whether a shared record says where an action's values sit.
  func sharedRecordHasActionPlaces(_ line: LineRange) throws -> Bool {
    try self.sharedRecordFields(line).of == RecordKind.action.rawValue
  }

  private func sharedRecordFields(_ line: LineRange) throws -> SharedRecord<Skipped> {
    try self.storage.withUnsafeBytes { bytes in
      try self.codec.decode(
        SharedRecord<Skipped>.self,
        from: UnsafeRawBufferPointer(
          rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)]))
    }
  }
}
