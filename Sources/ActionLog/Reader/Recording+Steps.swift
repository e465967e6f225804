import ActionLogScan

// Every step's state without the reducer: the nearest state the recording holds (its initial
// state or a checkpoint) and the updates of the actions after it.

extension Recording {
  /// What action `seq` changed in the state, as recorded: empty when it changed nothing, `nil`
  /// when the recording has no step updates (``LogHeader/hasStepUpdates``) or the action was not
  /// recorded. The operations are against the state in the recording's own schema version.
  public func update(ofAction seq: Int) throws -> [JSONPatchOperation]? {
    guard self.header.hasStepUpdates else { return nil }
    guard seq >= 1, seq <= self.count else {
      throw ActionLogError.noSuchAction(seq: seq, count: self.count)
    }
    let line = self.actionLine(at: seq - 1)
    guard line.length >= 0 else { return nil }
    return try self.decode(
      ActionRecord<Skipped>.self, at: line, part: .action, value: (Skipped.self, "action \(seq)")
    ).update ?? []
  }

  /// Whether the state after every step can be read without the reducer: the recording has
  /// step updates, or a checkpoint follows every action.
  public var hasEveryState: Bool {
    self.header.hasStepUpdates || self.checkpoints.count == self.count
  }

  /// The state after action `seq` (0: the initial state) as JSON, read through the recording's
  /// migrations: the nearest recorded state at or before it with the updates since applied.
  ///
  /// - Throws: ``ActionLogError/noSuchCheckpoint(seq:)`` when the recording has no step
  ///   updates and no checkpoint after `seq`; ``ActionLogError/undecodable(record:offset:codingPath:reason:)``
  ///   naming the record whose update does not apply.
  public func stateJSON(after seq: Int) throws -> JSONValue {
    var states = RecordedStates(self)
    return try states.state(after: seq)
  }

  /// The raw (unmigrated) state recorded at or before `seq`, and the step it is after.
  func nearestRecordedState(atOrBefore seq: Int) throws -> (seq: Int, state: JSONValue) {
    let checkpoint = self.checkpoint(atOrBefore: seq)
    if checkpoint > 0, let line = self.checkpointLines[checkpoint] {
      return (checkpoint, try self.parsedMember("value", of: line))
    }
    return (0, try self.parsedMember("initialState", of: self.headerLine))
  }

  private func parsedMember(_ name: String, of line: LineRange) throws -> JSONValue {
    let bytes = try self.member(name, of: line)
    do {
      return try JSONValue.parse(bytes)
    } catch {
      throw ActionLogError.undecodable(
        record: line.record, offset: line.offset, codingPath: name, reason: "\(error)")
    }
  }

  /// The raw state after `seq`, from `known` (a raw state after an earlier step) and the updates
  /// between.
  func rawState(after seq: Int, from known: (seq: Int, state: JSONValue)) throws -> JSONValue {
    var state = known.state
    let writes = try self.stateWrites()
    for step in stride(from: known.seq + 1, through: seq, by: 1) {
      state = try self.applyingWrites(writes, before: step, to: state)
      guard let update = try self.update(ofAction: step) else { continue }
      state = try self.applying(update, to: state, ofAction: step)
    }
    return state
  }

  /// `state` with what the rest of the app wrote into it after the action before `seq`.
  func applyingWrites(
    _ writes: [Int: [[JSONPatchOperation]]], before seq: Int, to state: JSONValue
  ) throws -> JSONValue {
    guard let updates = writes[seq - 1] else { return state }
    var state = state
    for update in updates {
      do {
        state = try state.applying(update)
      } catch let error as JSONPatchError {
        throw ActionLogError.undecodable(
          record: self.headerLine.record, offset: self.headerLine.offset,
          codingPath: "the app's write after action \(seq - 1)",
          reason: "\(error): the recording's writes do not follow its states")
      }
    }
    return state
  }

  /// `state` with action `seq`'s update applied; an update that does not apply is an error of
  /// that action's record.
  func applying(
    _ update: [JSONPatchOperation], to state: JSONValue, ofAction seq: Int
  ) throws -> JSONValue {
    guard !update.isEmpty else { return state }
    do {
      return try state.applying(update)
    } catch let error as JSONPatchError {
      let line = self.actionLine(at: seq - 1)
      throw ActionLogError.undecodable(
        record: line.record, offset: line.offset, codingPath: "update",
        reason: "\(error): the recording's updates do not follow its states"
      )
    }
  }

  /// A raw state read through the recording's migrations.
  func migratedState(_ state: JSONValue, after seq: Int) throws -> JSONValue {
    guard !self.migrationSteps.isEmpty else { return state }
    var state = state
    let line = seq == 0 ? self.headerLine : self.actionLine(at: seq - 1)
    try Self.apply(self.migrationSteps, of: .states, to: &state, line: line)
    return state
  }
}

/// Reads a recording's states step after step, each from the one before: what a replay that
/// compares every step, or a session without the feature's code, walks through.
public struct RecordedStates {
  /// The recording.
  public let recording: Recording
  private var known: (seq: Int, state: JSONValue)?

  /// A walk through `recording`'s states.
  public init(_ recording: Recording) {
    self.recording = recording
  }

  /// The state after action `seq` (0: the initial state), as JSON, read through the recording's
  /// migrations. Cheapest walked forward one step at a time.
  ///
  /// - Throws: as ``Recording/stateJSON(after:)``.
  public mutating func state(after seq: Int) throws -> JSONValue {
    guard seq >= 0, seq <= self.recording.count else {
      throw ActionLogError.noSuchAction(seq: seq, count: self.recording.count)
    }
    let nearest = try self.nearest(atOrBefore: seq)
    guard nearest.seq == seq || self.recording.header.hasStepUpdates else {
      throw ActionLogError.noSuchCheckpoint(seq: seq)
    }
    let raw = try self.recording.rawState(after: seq, from: nearest)
    self.known = (seq, raw)
    return try self.recording.migratedState(raw, after: seq)
  }

  /// The state after action `seq`, from the one after the step before it and `update`, that
  /// action's update as its record holds it (``RecordedAction/recordedUpdate``): what a walk one
  /// step at a time does without reading the record again.
  public mutating func state(
    after seq: Int, applying update: [JSONPatchOperation]
  ) throws -> JSONValue {
    guard let known = self.known, known.seq == seq - 1 else { return try self.state(after: seq) }
    let written = try self.recording.applyingWrites(
      try self.recording.stateWrites(), before: seq, to: known.state)
    let raw = try self.recording.applying(update, to: written, ofAction: seq)
    self.known = (seq, raw)
    return try self.recording.migratedState(raw, after: seq)
  }

  /// The closest state known at or before `seq`: the last one read when it is no further back
  /// than the recording's nearest checkpoint.
  private func nearest(atOrBefore seq: Int) throws -> (seq: Int, state: JSONValue) {
    let checkpoint = self.recording.checkpoint(atOrBefore: seq)
    if let known = self.known, known.seq <= seq, known.seq >= checkpoint {
      return known
    }
    return try self.recording.nearestRecordedState(atOrBefore: seq)
  }
}

extension Recording {
  /// Decodes a state rebuilt from the recording (``stateJSON(after:)``), the one after action
  /// `seq`.
  ///
  /// - Throws: ``ActionLogError/undecodable(record:offset:codingPath:reason:)`` naming the
  ///   action's record and where in the state decoding failed.
  public func decodeState<State: Decodable>(
    _ json: JSONValue, after seq: Int, as type: State.Type = State.self
  ) throws -> State {
    do {
      return try json.bytes.withUnsafeBytes { try self.codec.decode(State.self, from: $0) }
    } catch let error as DecodingError {
      let line = seq == 0 ? self.headerLine : self.actionLine(at: seq - 1)
      throw ActionLogError.undecodable(
        record: line.record, offset: line.offset,
        codingPath: "the state after action \(seq): " + error.codingPathDescription,
        reason: error.reason
      )
    }
  }
}
