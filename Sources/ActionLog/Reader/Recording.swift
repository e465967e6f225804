// NB: Over 400 lines on purpose: a recording and the reads every other file builds on (its
// actions, states and records by number), kept beside the storage they index.

import ActionLogScan
import StepChanges
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recording read from an action log: its header, an index of its actions and checkpoints, and
/// how it ended.
///
/// Opening a recording reads the file once, front to back: it checks every record's checksum and
/// notes where each action and checkpoint is, reading only a short prefix of each line. Actions
/// and states are decoded only when asked for, with the types the caller names:
///
/// ```swift
/// let recording = try Recording(contentsOf: url)
/// print(recording.count, recording.ending)
/// let first = try recording.action(1, as: Todos.Action.self)
/// let state = try recording.initialState(as: Todos.State.self)
/// ```
///
/// A recording that was cut short or damaged still opens: every whole record before the damage
/// is kept, and ``ending`` says where reading stopped and why. The file is never modified.
public final class Recording: Sendable {
  /// Where the recording was read from, if it was read from a file.
  public let url: URL?
  /// What the recording says about itself.
  public let header: LogHeader
  /// How the recording ended.
  public let ending: RecordingEnding
  /// Damaged records skipped, when opened with ``RecoveryMode/skipDamagedRecords``.
  public let skippedRecords: [RecordProblem]
  /// Notes, unknown record kinds, and other things worth knowing.
  public let warnings: [RecordingWarning]
  /// The sequence numbers of the actions after which a checkpoint holds the full state, in order.
  public let checkpoints: [Int]
  /// The size of the file in bytes.
  public let byteCount: Int

  let storage: Data
  let limits: ReadLimits
  let codec: any RecordCodec
  let headerLine: LineRange
  let actions: ActionIndex
  let checkpointLines: [Int: LineRange]
  /// The shared records, in the order written, with the action each follows.
  let sharedLines: [(seq: Int, line: LineRange)]
  /// The source lines action records name by number (`via`).
  let sites: RecordedSites
  let siteMemo = SiteMemo()
  let stateWritesMemo = StateWritesMemo()
  let unrecordedNotes: [Int: String]
  let endTime: Int64?
  /// The migration steps applied to every value read, in order; empty for most recordings.
  let migrationSteps: [MigrationStep]

  /// Opens a recording.
  ///
  /// - Parameters:
  ///   - url: The action log to read.
  ///   - recovery: What to do at a damaged record: stop there (the default) or skip it.
  ///   - limits: Bounds on record length and JSON depth.
  ///   - codec: Decodes payloads.
  ///   - progress: Called now and then during the scan with the bytes read so far and the total.
  /// - Throws: ``ActionLogError`` when the file cannot be read, is empty, does not start with a
  ///   header, or was written by a newer format version.
  /// - Complexity: O(*n*) in the size of the file; nothing is decoded but the header.
  public convenience init(
    contentsOf url: URL,
    recovery: RecoveryMode = .stopAtFirstDamage,
    limits: ReadLimits = .default,
    codec: any RecordCodec = CompactJSONCodec(),
    progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil
  ) throws {
    let data: Data
    do {
      data = try Data(contentsOf: url, options: .alwaysMapped)
    } catch {
      throw ActionLogError.unreadable(path: url.path, reason: Self.describe(error))
    }
    try self.init(
      data: data, url: url, recovery: recovery, limits: limits, codec: codec, progress: progress
    )
  }

  /// Reads a recording from bytes in memory.
  ///
  /// - Parameters:
  ///   - data: The bytes of an action log.
  ///   - url: Where they came from, for messages.
  ///   - recovery: What to do at a damaged record.
  ///   - limits: Bounds on record length and JSON depth.
  ///   - codec: Decodes payloads.
  ///   - progress: Called now and then with the bytes read so far and the total.
  public convenience init(
    data: Data,
    url: URL? = nil,
    recovery: RecoveryMode = .stopAtFirstDamage,
    limits: ReadLimits = .default,
    codec: any RecordCodec = CompactJSONCodec(),
    progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil
  ) throws {
    // NB: Skipping damaged records is for a recording that is damaged, or checked as if it
    // were: the sequential scan checks every record's fields where they are read (the parallel
    // scan leaves an action's time and trigger to be checked when the action is read).
    try self.init(
      data: data, url: url, recovery: recovery, limits: limits, codec: codec, progress: progress,
      strategy: recovery == .skipDamagedRecords ? .sequential : .automatic
    )
  }

  /// Reads a recording with a given scan strategy (tests compare them).
  init(
    data: Data,
    url: URL? = nil,
    recovery: RecoveryMode = .stopAtFirstDamage,
    limits: ReadLimits = .default,
    codec: any RecordCodec = CompactJSONCodec(),
    progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
    strategy: FastScan.Strategy
  ) throws {
    let path = url?.path ?? "the recording"
    var scanner = Scanner(
      path: path, recovery: recovery, limits: limits, codec: codec, progress: progress,
      strategy: strategy
    )
    try data.withUnsafeBytes { try scanner.scan($0) }
    guard let header = scanner.header, let headerLine = scanner.headerLine else {
      throw ActionLogError.empty(path: path)
    }
    self.url = url
    self.header = header
    self.headerLine = headerLine
    self.ending = scanner.ending
    self.skippedRecords = scanner.skipped
    self.warnings = scanner.warnings
    self.checkpoints = scanner.checkpointLines.keys.sorted()
    self.checkpointLines = scanner.checkpointLines
    self.sharedLines = scanner.sharedLines
    self.sites = scanner.sites
    self.actions = scanner.actions
    self.unrecordedNotes = scanner.unrecordedNotes
    self.endTime = scanner.endTime
    self.byteCount = data.count
    self.storage = data
    self.limits = limits
    self.codec = codec
    self.migrationSteps = []
  }

  /// The same recording, its values read through `steps`.
  init(_ other: Recording, migrationSteps: [MigrationStep]) {
    self.url = other.url
    var header = other.header
    // NB: What the recording redacted, named as the migrated values name it.
    header.redactions = other.header.redactions.migrated(by: migrationSteps)
    self.header = header
    self.headerLine = other.headerLine
    self.ending = other.ending
    self.skippedRecords = other.skippedRecords
    self.warnings = other.warnings
    self.checkpoints = other.checkpoints
    self.checkpointLines = other.checkpointLines
    self.sharedLines = other.sharedLines
    self.sites = other.sites
    self.actions = other.actions
    self.unrecordedNotes = other.unrecordedNotes
    self.endTime = other.endTime
    self.byteCount = other.byteCount
    self.storage = other.storage
    self.limits = other.limits
    self.codec = other.codec
    self.migrationSteps = migrationSteps
  }

  /// The number of actions recorded.
  public var count: Int {
    self.actions.count
  }

  /// How long the recording lasted: the time of its end record, or of its last action.
  public var duration: Duration {
    .nanoseconds(self.endTime ?? (self.count > 0 ? self.actionTime(at: self.count - 1) : 0))
  }

  /// The time of an action, since the recording started.
  ///
  /// - Precondition: `seq` is in `1...count`.
  public func time(ofAction seq: Int) -> Duration {
    .nanoseconds(self.actionTime(at: seq - 1))
  }

  /// Where an action came from, read from the index without decoding the action.
  ///
  /// - Precondition: `seq` is in `1...count`.
  public func origin(ofAction seq: Int) -> RecordedOrigin {
    let trigger = self.actionTrigger(at: seq - 1)
    return trigger == 0 ? .send : .effect(parent: Int(trigger))
  }

  /// The last action at or before `time`, or 0 when `time` is before the first action.
  ///
  /// - Complexity: O(log *n*).
  public func action(atTime time: Duration) -> Int {
    let target = time.nanoseconds
    var low = 0
    var high = self.count
    while low < high {
      let middle = (low + high) / 2
      if self.actionTime(at: middle) <= target { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The latest checkpoint at or before action `seq`: its sequence number, or 0 for the initial
  /// state in the header.
  ///
  /// - Complexity: O(log *c*) in the number of checkpoints.
  public func checkpoint(atOrBefore seq: Int) -> Int {
    var low = 0
    var high = self.checkpoints.count
    while low < high {
      let middle = (low + high) / 2
      if self.checkpoints[middle] <= seq { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? 0 : self.checkpoints[low - 1]
  }

  /// Decodes the state before the first action.
  public func initialState<State: Decodable>(as type: State.Type = State.self) throws -> State {
    try self.decode(
      HeaderRecord<State>.self, at: self.headerLine, part: .header,
      value: (State.self, "the initial state")
    ).initialState
  }

  /// Decodes action `seq`.
  ///
  /// - Throws: ``ActionLogError/noSuchAction(seq:count:)``,
  ///   ``ActionLogError/actionNotRecorded(seq:note:)``,
  ///   ``ActionLogError/undecodable(record:offset:codingPath:reason:)``.
  public func action<Action: Decodable>(
    _ seq: Int, as type: Action.Type = Action.self
  ) throws -> RecordedAction<Action> {
    let line = try self.actionLine(seq)
    let record = try self.decode(
      ActionRecord<Action>.self, at: line, part: .action, value: (Action.self, "action \(seq)"))
    return try self.recordedAction(seq, record, at: line)
  }

  /// Action `seq` as its record says, once its envelope is checked.
  @inline(__always)
  func recordedAction<Action>(
    _ seq: Int, _ record: ActionRecord<Action>, at line: LineRange
  ) throws -> RecordedAction<Action> {
    // NB: The scan checked these where it read them; the parallel scan reads them only here.
    guard record.time >= 0 else {
      throw ActionLogError.undecodable(
        record: line.record, offset: line.offset, codingPath: "time",
        reason: "\(record.time) is before the start: an action's time counts from 0"
      )
    }
    if let trigger = record.trigger, !(1..<seq).contains(trigger) {
      throw ActionLogError.undecodable(
        record: line.record, offset: line.offset, codingPath: "trigger",
        reason: "\(trigger) is not " + earlierActions(before: seq)
      )
    }
    return RecordedAction(
      seq: seq,
      time: .nanoseconds(record.time),
      origin: record.trigger.map { RecordedOrigin.effect(parent: $0) } ?? .send,
      action: record.value,
      captured: record.uses ?? CapturedValues(),
      recordedEffects: record.yields,
      recordedUpdate: self.header.hasStepUpdates ? record.update ?? [] : nil,
      site: self.site(ofAction: seq, via: record.via)
    )
  }

  /// What the reducer returned for action `seq`, as the recorder described it: `nil` when it
  /// returned no effect, or the recording has no effect ledger (see
  /// ``LogHeader/hasEffectLedger``).
  public func recordedEffects(ofAction seq: Int) throws -> JSONValue? {
    guard self.header.hasEffectLedger else { return nil }
    let line = try self.actionLine(seq)
    return try self.decode(
      ActionRecord<Skipped>.self, at: line, part: .action, value: (Skipped.self, "action \(seq)")
    ).yields
  }

  /// The JSON of action `seq` as written, for showing an action whose type is not at hand.
  public func actionJSON(_ seq: Int) throws -> String {
    let line = try self.actionLine(seq)
    let record = try self.decode(
      ActionRecord<JSONText>.self, at: line, part: .action, value: (JSONText.self, "action \(seq)"))
    return record.value.text
  }

  /// Decodes the state recorded after action `seq`.
  ///
  /// - Throws: ``ActionLogError/noSuchCheckpoint(seq:)`` when there is no checkpoint there.
  public func checkpoint<State: Decodable>(
    after seq: Int, as type: State.Type = State.self
  ) throws -> State {
    guard let line = self.checkpointLines[seq] else {
      throw ActionLogError.noSuchCheckpoint(seq: seq)
    }
    return try self.decode(
      CheckpointRecord<State>.self, at: line, part: .checkpoint,
      value: (State.self, "the checkpoint after action \(seq)")
    ).value
  }

  // MARK: - Internals

  /// The time of the action at `position` (its seq less one), in nanoseconds.
  func actionTime(at position: Int) -> Int64 {
    if position < self.actions.times.count { return self.actions.times[position] }
    return self.envelope(at: position)?.time ?? 0
  }

  /// The seq of the action that fed back the one at `position`, or 0 for one sent to the store.
  func actionTrigger(at position: Int) -> Int {
    if position < self.actions.triggers.count { return Int(self.actions.triggers[position]) }
    return self.envelope(at: position)?.trigger ?? 0
  }

  /// The envelope of an action line the fast scan indexed.
  ///
  /// NB: The scan read the envelope at the start of the payload, so its end is not looked for: an
  /// envelope is at most a few hundred bytes.
  private func envelope(at position: Int) -> RecordEnvelope? {
    self.storage.withUnsafeBytes { bytes in
      guard let offset = self.actions.offset(at: position),
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
      else { return nil }
      let start = offset + Framing.prefixLength
      return RecordEnvelope(base + start, count: min(bytes.count - start, 512))
    }
  }

  /// Where the action at `position` (its seq less one) is.
  func actionLine(at position: Int) -> LineRange {
    self.storage.withUnsafeBytes { self.actions.line(at: position, in: $0) }
  }

  func actionLine(_ seq: Int) throws -> LineRange {
    guard seq >= 1, seq <= self.actions.count else {
      throw ActionLogError.noSuchAction(seq: seq, count: self.actions.count)
    }
    let line = self.actionLine(at: seq - 1)
    guard line.length >= 0 else {
      throw ActionLogError.actionNotRecorded(seq: seq, note: self.unrecordedNotes[seq] ?? "")
    }
    return line
  }

  /// Decodes the record on `line`, whose value is of `value.type` and is described as
  /// `value.what` in messages (`action 4`).
  func decode<T: Decodable>(
    _ type: T.Type, at line: LineRange, part: RecordPart, value: (type: Any.Type, what: String)
  ) throws -> T {
    try self.storage.withUnsafeBytes { bytes in
      let payload = UnsafeRawBufferPointer(
        rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)]
      )
      guard
        jsonDepth(of: payload, limit: self.limits.maximumJSONDepth)
          <= self.limits.maximumJSONDepth
      else {
        throw ActionLogError.tooDeep(
          record: line.record, offset: line.offset, limit: self.limits.maximumJSONDepth
        )
      }
      do {
        guard !self.migrationSteps.isEmpty else {
          return try self.codec.decode(type, from: payload)
        }
        let migrated = try self.migrate(
          payload, part: part, line: line, steps: self.migrationSteps)
        return try migrated.withUnsafeBytes { try self.codec.decode(type, from: $0) }
      } catch let error as MigrationError {
        throw error
      } catch let error as DecodingError {
        if let diagnosis = self.diagnose(error, in: payload, part: part, valueType: value.type) {
          throw ActionLogError.typesChanged(
            record: line.record, offset: line.offset, value: value.what,
            codingPath: error.codingPathDescription, change: diagnosis.change,
            step: diagnosis.step
          )
        }
        throw ActionLogError.undecodable(
          record: line.record,
          offset: line.offset,
          codingPath: error.codingPathDescription,
          reason: error.reason
        )
      } catch let error as any _TypeLimitation {
        throw ActionLogError.notRebuildable(
          record: line.record, offset: line.offset, reason: "\(error)")
      } catch {
        throw ActionLogError.undecodable(
          record: line.record, offset: line.offset, codingPath: "", reason: "\(error)"
        )
      }
    }
  }

  private static func describe(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
      return "no such file"
    }
    return nsError.localizedDescription
  }
}
