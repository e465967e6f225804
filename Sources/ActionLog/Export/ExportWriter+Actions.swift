import ActionLogScan

// An export's actions and checkpoints: each renumbered, retimed, migrated and redacted, with
// what the options replace in it (its effects, its step update, its line, its trigger).

extension ExportWriter {
  /// The recording's action `seq`, as the new recording's action `number`; a stand-in note
  /// for an action that was not recorded.
  func writeAction(_ seq: Int, as number: Int) throws {
    let recording = self.recording
    let line = recording.actionLine(at: seq - 1)
    guard line.length >= 0 else {
      let note = NoteRecord(
        kind: RecordKind.note.rawValue, seq: number,
        text: recording.unrecordedNotes[seq] ?? "the action was not recorded",
        unrecorded: RecordKind.action.rawValue
      )
      self.append(try recording.codec.encode(note))
      return
    }
    var members = RecordMembers(
      replacing: [
        "seq": Array(String(number).utf8),
        "time": Array(String(self.rebased(recording.actionTime(at: seq - 1))).utf8),
      ])
    if let yields = self.options.effectLedger?[seq] {
      // NB: Replaced where the record has it; otherwise appended, which keeps the keys sorted,
      // since `yields` sorts last among an action's.
      members.set("yields", yields?.bytes)
    }
    try self.updates.carry(seq, line: line, into: &members, for: self)
    if recording.hasCallSites {
      let (via, last) = SiteNumbers.via(
        forNumber: recording.siteNumber(ofAction: seq), after: self.lastVia)
      self.lastVia = last
      members.set("via", via.map { Array(String($0).utf8) })
    }
    let trigger = recording.actionTrigger(at: seq - 1)
    if trigger > 0, let parent = self.selection.newNumber(trigger) {
      members.replacing["trigger"] = Array(String(parent).utf8)
    } else if trigger > 0 {
      // The action whose effect sent this one was left out.
      members.removing.insert("trigger")
    }
    var rewritten = try self.rewriting(
      line, replacing: members.replacing, removing: members.removing,
      appending: members.appending)
    if !self.steps.isEmpty {
      rewritten = try rewritten.withUnsafeBytes {
        try recording.migrate($0, part: .action, line: line, steps: self.steps)
      }
    }
    self.append(
      try JSONRewriter.redact(rewritten, paths: self.actionPaths, placeholders: &self.placeholders))
    try self.appendActionPlaces(of: seq, as: number)
  }

  /// The checkpoint after the recording's action `seq`: the subset's own state, or the
  /// recorded one (its state replaced when the options give one), as the new action `number`'s.
  func writeCheckpoint(after seq: Int, as number: Int) throws {
    let recording = self.recording
    if let state = self.options.subset?.checkpointStates[seq], self.selection.isSubset {
      let record = try recording.codec.encode(
        CheckpointRecord(kind: RecordKind.checkpoint.rawValue, seq: number, value: Skipped()))
      let written = try record.withUnsafeBytes {
        try JSONRewriter.rewritingMembers(of: $0, replacing: ["value": state])
      }
      self.append(
        try JSONRewriter.redact(written, paths: self.statePaths, placeholders: &self.placeholders))
      self.lastVia = nil
    } else if !self.selection.isSubset, let checkpoint = recording.checkpointLines[seq] {
      var replacements = ["seq": Array(String(number).utf8)]
      if let state = self.options.checkpointStates[seq] { replacements["value"] = state }
      var rewritten = try self.rewriting(checkpoint, replacing: replacements)
      if !self.steps.isEmpty, self.options.checkpointStates[seq] == nil {
        rewritten = try rewritten.withUnsafeBytes {
          try recording.migrate($0, part: .checkpoint, line: checkpoint, steps: self.steps)
        }
      }
      self.append(
        try JSONRewriter.redact(
          rewritten, paths: self.statePaths, placeholders: &self.placeholders))
      self.lastVia = nil
    }
  }
}

/// What an export changes in one recorded record's top-level members.
struct RecordMembers {
  var replacing: [String: [UInt8]]
  var removing: Set<String> = []
  var appending: [(String, [UInt8])] = []

  /// Sets `name` to `value`, replaced where the record has it and appended where it does not;
  /// removes it for `nil`.
  mutating func set(_ name: String, _ value: [UInt8]?) {
    if let value {
      self.replacing[name] = value
      self.appending.append((name, value))
    } else {
      self.removing.insert(name)
    }
  }
}
