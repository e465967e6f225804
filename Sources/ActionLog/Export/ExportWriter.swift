import ActionLogScan
import StepChanges
import Foundation

/// An export in progress: the new recording's records, written stage by stage into memory by
/// ``Recording/export(to:options:stepStates:)`` (header, then each kept action with what
/// goes with it, then the end), then to its file.
///
/// Each record is renumbered for the selection, migrated to the options' schema and redacted
/// with the recording's and the options' paths as it is written.
final class ExportWriter {
  let recording: Recording
  let options: ExportOptions
  let selection: ExportSelection
  /// The migration steps to the options' schema.
  let steps: [MigrationStep]
  /// The recording's redactions (naming today's types) and the export's own.
  let redactions: Redactions
  var placeholders: RedactionPlaceholders
  let statePaths: [RedactionPath]
  let actionPaths: [RedactionPath]
  /// The time of the last action left out, which the kept ones count from.
  let cutTime: Int64
  /// How step updates are carried (see `ExportWriter+Updates.swift`).
  var updates: StepUpdates
  /// The notes to write, by the action they follow.
  var notes: [Int: [String]] = [:]
  /// The site records not written yet (see `ExportWriter+Carried.swift`).
  var sitesLeft: ArraySlice<(number: Int, site: CallSite, line: LineRange, after: Int)>
  /// What the last action written said its line was, since the last checkpoint written.
  var lastVia: Int?
  /// The shared records not written yet, and the places of each action's values.
  var sharedLeft: ArraySlice<(seq: Int, line: LineRange)> = []
  var actionPlaces: [Int: LineRange] = [:]

  /// The new recording's bytes so far, and its records.
  private(set) var output: [UInt8] = []
  private(set) var records = 0

  init(
    _ recording: Recording, options: ExportOptions,
    stepStates: ((_ seq: Int) throws -> [UInt8])?
  ) throws {
    self.recording = recording
    self.options = options
    self.selection = try ExportSelection(options, of: recording)
    self.steps = try options.schema.map { try recording.header.steps(to: $0) } ?? []
    // NB: The recording's own paths name its types; written after the migration, they must
    // name today's. The export's own are today's already.
    self.redactions = recording.header.redactions.migrated(by: self.steps)
      .merging(options.redactions)
    let firstNumber =
      recording.storage.withUnsafeBytes { RedactionPlaceholders.highestNumber(in: $0) } + 1
    self.placeholders = RedactionPlaceholders(firstNumber: firstNumber)
    self.statePaths = self.redactions.state.map { $0.under("value") }
    self.actionPaths = self.redactions.actions.map { $0.under("value") }
    let cut = self.selection.cut
    self.cutTime = cut == 0 ? 0 : recording.actionTime(at: cut - 1)
    self.sitesLeft = recording.sites.lines[...]
    self.updates = StepUpdates(stepStates: stepStates)
    try self.updates.prepare(for: self)
  }

  /// Appends a record.
  func append(_ payload: [UInt8]) {
    Framing.append(payload: payload, to: &self.output)
    self.records += 1
  }

  /// A recorded record's JSON with members replaced, removed and added.
  func rewriting(
    _ line: LineRange, replacing replacements: [String: [UInt8]],
    removing removals: Set<String> = [], appending additions: [(String, [UInt8])] = []
  ) throws -> [UInt8] {
    try self.recording.storage.withUnsafeBytes {
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

  /// A time of the recording, counted from the cut.
  ///
  /// A time the reader accepted may lie so far from the cut that the difference overflows (a
  /// damaged record); the export saturates it rather than trap.
  func rebased(_ time: Int64) -> Int64 {
    let (difference, overflow) = time.subtractingReportingOverflow(self.cutTime)
    guard overflow else { return difference }
    return time < self.cutTime ? .min : .max
  }

  // MARK: - Stages

  /// The header: the state the export starts from, the merged metadata and redactions, the
  /// schema it is at.
  func writeHeader() throws {
    let recording = self.recording
    let cut = self.selection.cut
    let initialState: [UInt8]
    if let raw = self.updates.rawState, cut > 0 {
      // The recording's own state at the cut, which its updates follow.
      initialState = raw.state.bytes
    } else if let state = self.options.cut?.state, cut > 0 {
      initialState = state
    } else if cut > 0 {
      guard let line = recording.checkpointLines[cut] else {
        throw ActionLogError.noSuchCheckpoint(seq: cut)
      }
      initialState = try recording.member("value", of: line)
    } else {
      initialState = try recording.member("initialState", of: recording.headerLine)
    }
    let migratedState = try Recording.migrating(
      initialState, .states, by: self.steps, line: recording.headerLine)
    let headerRecord = HeaderRecord(self.header(), initialState: Skipped())
    let headerPayload = try recording.codec.encode(headerRecord).withUnsafeBytes {
      try JSONRewriter.rewritingMembers(of: $0, replacing: ["initialState": migratedState])
    }
    self.append(
      try JSONRewriter.redact(
        headerPayload, paths: self.redactions.state.map { $0.under("initialState") },
        placeholders: &self.placeholders
      )
    )
  }

  /// The new recording's header, but for its initial state.
  private func header() -> LogHeader {
    let recording = self.recording
    let cut = self.selection.cut
    var metadata = recording.header.metadata.merging(self.options.metadata) { $1 }.filter {
      !$0.value.isEmpty
    }
    // NB: A caller that knows better what the actions are (a session's report) says it itself.
    if cut > 0, self.options.metadata["cutFrom"] == nil {
      let left = cut == recording.count ? "none" : "actions \(cut + 1)–\(recording.count)"
      metadata["cutFrom"] =
        "\(left) of \(recording.count), recorded from \(recording.header.startedAtText)"
    }
    var header = recording.header
    header.metadata = metadata
    header.redactions = self.redactions
    header.startedAt = recording.header.startedAt.addingTimeInterval(Double(self.cutTime) / 1e9)
    if self.options.effectLedger != nil { header.hasEffectLedger = true }
    header.hasStepUpdates = self.updates.keeps
    if let subset = self.options.subset, !subset.actions.isEmpty,
      subset.actions.allSatisfy({ subset.checkpointStates[$0] != nil })
    {
      header.checkpointInterval = 1
    }
    if let schema = self.options.schema, !self.steps.isEmpty {
      header.schemaVersion = schema.version
      header.migration = AppliedMigration(
        from: recording.header.migration?.from ?? recording.header.schemaVersion,
        steps: (recording.header.migration?.steps ?? []) + self.steps.map(\.description)
      )
    }
    return header
  }

  /// Gathers the notes, by the action they follow, and writes those before the first action. A
  /// stand-in for an unrecorded action is written in its place instead.
  func writeOpeningNotes() throws {
    let cut = self.selection.cut
    for case let .note(seq, text) in self.recording.warnings
    where self.selection.newNumber(seq) != nil || (cut == 0 && seq == 0) {
      self.notes[seq, default: []].append(text)
    }
    for (seq, text) in self.recording.unrecordedNotes where seq > cut {
      if let index = self.notes[seq]?.firstIndex(of: text) { self.notes[seq]?.remove(at: index) }
    }
    for text in self.notes[0] ?? [] where cut == 0 {
      self.append(
        try self.recording.codec.encode(
          NoteRecord(kind: RecordKind.note.rawValue, seq: 0, text: text)))
    }
  }

  /// Each kept action, with the shared and site records before it, its checkpoint and its
  /// notes after it.
  func writeActions() throws {
    for seq in self.selection.kept {
      let number = self.selection.newNumber(seq) ?? seq
      try self.appendShared(before: seq, as: number - 1)
      try self.appendSites(before: seq)
      try self.writeAction(seq, as: number)
      try self.writeCheckpoint(after: seq, as: number)
      for text in self.notes[seq] ?? [] {
        self.append(
          try self.recording.codec.encode(
            NoteRecord(kind: RecordKind.note.rawValue, seq: number, text: text)))
      }
    }
    try self.appendShared(before: nil, as: self.selection.kept.count)
    try self.appendSites(before: nil)
  }

  /// The end record of a recording that ended cleanly.
  func writeEnd() throws {
    let recording = self.recording
    guard recording.ending == .clean else { return }
    let time = self.rebased(
      recording.endTime ?? (recording.count > 0 ? recording.actionTime(at: recording.count - 1) : 0)
    )
    self.append(
      try recording.codec.encode(
        EndRecord(kind: RecordKind.end.rawValue, seq: self.selection.kept.count, time: time)))
  }

  /// Writes the records to `url`, reads them back, and says what was written; a failure
  /// leaves no file.
  func finish(to url: URL) throws -> ExportSummary {
    let recording = self.recording
    let fileSystem = self.options.fileSystem
    let file = try LogFile.create(
      url, header: self.output, fileSystem: fileSystem, syncsFirst: true)
    if let reason = file.close() {
      try? fileSystem.unlink(url.path)
      throw ActionLogError.writeFailed(path: url.path, reason: reason)
    }
    // Read it back: what was written must be what was meant.
    let written: Recording
    do {
      written =
        fileSystem is POSIXFileSystem
        ? try Recording(contentsOf: url, limits: recording.limits, codec: recording.codec)
        : try Recording(
          data: Data(self.output), url: url, limits: recording.limits, codec: recording.codec)
      guard written.count == self.selection.kept.count,
        written.ending == (recording.ending == .clean ? .clean : .unterminated)
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
    let hits = self.placeholders.hits
    let asked = self.options.redactions
    return ExportSummary(
      actions: written.count,
      cutActions: self.selection.cut,
      bytes: self.output.count,
      records: self.records,
      redactedValues: (asked.state + asked.actions).reduce(0) { $0 + (hits[$1.description] ?? 0) },
      unmatched: Redactions(
        statePaths: asked.state.filter { hits[$0.description] == nil },
        actionPaths: asked.actions.filter { hits[$0.description] == nil }
      ),
      header: written.header,
      ending: written.ending
    )
  }
}
