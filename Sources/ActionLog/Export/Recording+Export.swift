import ActionLogScan
import Foundation

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
    // Choose the actions, and how step updates are carried (ExportSelection, StepUpdates).
    let writer = try ExportWriter(self, options: options, stepStates: stepStates)
    try writer.writeHeader()
    try writer.writeOpeningNotes()
    // Shared and site records are carried over, each before the next kept action.
    try writer.prepareShared()
    // Each action renumbered, retimed, migrated and redacted, with its checkpoint and notes.
    try writer.writeActions()
    try writer.writeEnd()
    return try writer.finish(to: url)
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
