import ActionLogScan

// An export's step updates (what each action changed): kept as recorded while the states keep
// their shape; worked out anew from each step's state when a migration or more redaction
// changes the states, or when the caller gives the states (`replay rerecord`); dropped when
// actions are left out or the checkpoints' states are replaced.

extension ExportWriter {
  struct StepUpdates {
    /// The state after each action, as JSON, when the caller gives them.
    let stepStates: ((_ seq: Int) throws -> [UInt8])?
    /// Whether the new recording has step updates.
    private(set) var keeps = false
    /// Whether they are worked out anew rather than copied.
    private(set) var recomputes = false
    /// The recorded (or given) state at the step reached, and the state as written there.
    private(set) var rawState: (seq: Int, state: JSONValue)?
    private var writtenState: JSONValue?

    init(stepStates: ((_ seq: Int) throws -> [UInt8])?) {
      self.stepStates = stepStates
    }

    /// Decides how the updates are carried, and reads the state the export starts from.
    mutating func prepare(for writer: ExportWriter) throws {
      let recording = writer.recording
      let options = writer.options
      self.keeps =
        options.subset == nil
        && (self.stepStates != nil
          || recording.header.hasStepUpdates && options.checkpointStates.isEmpty)
      self.recomputes =
        self.keeps
        && (self.stepStates != nil || !writer.steps.isEmpty || !options.redactions.state.isEmpty)
      let cut = writer.selection.cut
      if self.keeps, self.stepStates != nil {
        self.rawState = (
          0, try JSONValue.parse(try recording.member("initialState", of: recording.headerLine))
        )
      } else if self.keeps {
        let nearest = try recording.nearestRecordedState(atOrBefore: cut)
        self.rawState = (cut, try recording.rawState(after: cut, from: nearest))
      }
      if self.recomputes, let rawState = self.rawState {
        self.writtenState = try writer.written(rawState.state, line: recording.headerLine)
      }
    }

    /// The update of the recording's action `seq` into `members`: removed, kept, or worked
    /// out anew.
    mutating func carry(
      _ seq: Int, line: LineRange, into members: inout RecordMembers, for writer: ExportWriter
    ) throws {
      let recording = writer.recording
      if recording.header.hasStepUpdates, !self.keeps {
        members.removing.insert("update")
      } else if self.recomputes, let raw = self.rawState, let before = self.writtenState {
        let after =
          try self.stepStates.map { try JSONValue.parse($0(seq)) }
          ?? recording.rawState(after: seq, from: raw)
        self.rawState = (seq, after)
        let next = try writer.written(after, line: line)
        self.writtenState = next
        let update = before.changes(to: next)
        members.set("update", update.isEmpty ? nil : try recording.codec.encode(update))
      }
    }
  }

  /// A step's state as the export writes it: migrated and redacted.
  func written(_ raw: JSONValue, line: LineRange) throws -> JSONValue {
    var bytes = try Recording.migrating(raw.bytes, .states, by: self.steps, line: line)
    self.placeholders.countsHits = false
    defer { self.placeholders.countsHits = true }
    bytes = try JSONRewriter.redact(
      bytes, paths: self.redactions.state, placeholders: &self.placeholders)
    return try JSONValue.parse(bytes)
  }
}
