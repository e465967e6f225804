// NB: Over 400 lines on purpose: the sequential scanner and its rule for each record kind, which
// read best together.

import ActionLogScan
import StepChanges
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The single pass that opens a recording: it frames lines, checks checksums, reads each record's
/// kind and sequence number from a short prefix, and indexes actions and checkpoints.
struct Scanner {
  let path: String
  let recovery: RecoveryMode
  let limits: ReadLimits
  let codec: any RecordCodec
  let progress: ((Int, Int) -> Void)?
  let strategy: FastScan.Strategy

  private(set) var header: LogHeader?
  private(set) var headerLine: LineRange?
  private(set) var ending: RecordingEnding = .unterminated
  private(set) var skipped: [RecordProblem] = []
  private(set) var warnings: [RecordingWarning] = []
  private(set) var actions = ActionIndex()
  private(set) var checkpointLines: [Int: LineRange] = [:]
  /// The shared records, in the order written, with the action each follows.
  private(set) var sharedLines: [(seq: Int, line: LineRange)] = []
  /// The site records: the source lines action records name by number, and the records.
  private(set) var sites = RecordedSites()
  private(set) var unrecordedNotes: [Int: String] = [:]
  private(set) var endTime: Int64?
  /// The most actions a gap may stand for when damaged records are skipped: as many as the
  /// file's size could have held, whatever a seq claims, so that the places kept for them cost
  /// no more than a small multiple of the file.
  private var maximumLostActions = 0

  init(
    path: String,
    recovery: RecoveryMode,
    limits: ReadLimits,
    codec: any RecordCodec,
    progress: ((Int, Int) -> Void)?,
    strategy: FastScan.Strategy = .automatic
  ) {
    self.strategy = strategy
    self.path = path
    self.recovery = recovery
    self.limits = limits
    self.codec = codec
    self.progress = progress
  }

  /// Reads every record of `bytes`.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw ActionLogError.empty(path: self.path)
    }
    let total = bytes.count
    self.maximumLostActions = IndexRules.maximumLostActions(inFileOf: total)
    let lineLimit = self.limits.maximumRecordLength + Framing.prefixLength
    // Most action lines are longer than 64 bytes: reserve once rather than grow.
    let estimate = total / 64
    self.actions.places.reserveCapacity(estimate)
    self.actions.times.reserveCapacity(estimate)
    self.actions.triggers.reserveCapacity(estimate)
    var offset = 0
    var record = 0
    var nextProgress = 16 << 20
    var hasEnded = false

    while offset < total {
      if offset >= nextProgress {
        self.progress?(offset, total)
        nextProgress = offset + (16 << 20)
      }
      record += 1
      let window = min(total - offset, lineLimit + 1)
      guard let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), window) else {
        if window > lineLimit {
          // No newline within the limit: the record is too long to accept.
          let problem = RecordProblem(
            record: record, offset: offset, kind: .tooLong(limit: self.limits.maximumRecordLength)
          )
          if record == 1 {
            throw ActionLogError.missingHeader(path: self.path, reason: problem.description)
          }
          guard self.recovery == .skipDamagedRecords,
            let next = memchr(base + offset, Int32(UInt8(ascii: "\n")), total - offset)
          else {
            self.ending = .damaged(problem)
            return
          }
          self.skipped.append(problem)
          offset = base.distance(to: UnsafeRawPointer(next)) + 1
          continue
        }
        // The last line has no newline: it was being written when the recording stopped.
        if record == 1 {
          throw ActionLogError.missingHeader(
            path: self.path, reason: "the header record is incomplete (no newline)"
          )
        }
        if !hasEnded {
          self.ending = .tornTail(offset: offset, length: total - offset)
        } else {
          self.warnings.append(.dataAfterEnd(offset: offset))
        }
        break
      }
      let lineEnd = base.distance(to: UnsafeRawPointer(newline))
      let line = UnsafeRawBufferPointer(rebasing: bytes[offset..<lineEnd])
      let lineStart = offset
      offset = lineEnd + 1

      if hasEnded {
        self.warnings.append(.dataAfterEnd(offset: lineStart))
        break
      }
      if record == 1 {
        try self.readHeader(line, offset: lineStart)
        let threshold: Int? =
          switch self.strategy {
          case .automatic: FastScan.parallelThreshold
          case let .parallel(from): from
          case .sequential: nil
          }
        if let threshold,
          let fast = FastScan.scan(
            bytes, from: offset, maximumLineLength: self.limits.maximumRecordLength,
            parallelFrom: threshold
          ),
          self.adopt(fast, bytes)
        {
          self.progress?(total, total)
          return
        }
        continue
      }
      switch self.read(line, record: record, offset: lineStart) {
      case .ok:
        continue
      case .ended:
        hasEnded = true
        self.ending = .clean
      case let .problem(problem):
        guard self.recovery == .skipDamagedRecords else {
          self.ending = .damaged(problem)
          return
        }
        self.skipped.append(problem)
      }
    }
    self.progress?(total, total)
  }

  /// Takes the index of a healthy recording scanned in parallel.
  private mutating func adopt(_ fast: FastScan.Result, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !fast.isMisplaced else { return false }
    // NB: A handful of records, read here: one the sequential scanner would refuse sends the
    // file to it.
    var sites = RecordedSites()
    for (line, after) in fast.sites {
      let payload = UnsafeRawBufferPointer(
        rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)])
      guard sites.add(payload, codec: self.codec, line: line, after: after) else { return false }
    }
    self.sites = sites
    self.sharedLines = fast.shared
    self.actions = fast.actions
    self.checkpointLines = fast.checkpoints
    if let endTime = fast.endTime {
      self.ending = .clean
      self.endTime = endTime
    } else if let torn = fast.tornTail {
      self.ending = .tornTail(offset: torn.offset, length: torn.length)
    }
    return true
  }

  private enum Outcome {
    case ok
    case ended
    case problem(RecordProblem)
  }

  private mutating func readHeader(_ line: UnsafeRawBufferPointer, offset: Int) throws {
    guard let written = Framing.parsePrefix(line) else {
      throw ActionLogError.missingHeader(
        path: self.path, reason: "it does not start with an 8-digit checksum and a space"
      )
    }
    let payload = UnsafeRawBufferPointer(rebasing: line[Framing.prefixLength...])
    let computed = Framing.checksum(payload)
    guard computed == written else {
      throw ActionLogError.missingHeader(
        path: self.path, reason: "its checksum does not match its payload"
      )
    }
    guard
      jsonDepth(of: payload, limit: self.limits.maximumJSONDepth)
        <= self.limits.maximumJSONDepth
    else {
      throw ActionLogError.missingHeader(
        path: self.path,
        reason: "it nests JSON deeper than \(self.limits.maximumJSONDepth) levels"
      )
    }
    // The format version first, so a newer file is refused for its version and not for a field
    // this reader does not know.
    if let versioned = try? self.codec.decode(VersionedRecord.self, from: payload),
      versioned.kind == RecordKind.header.rawValue, versioned.format > LogFormat.version
    {
      throw ActionLogError.unsupportedVersion(
        path: self.path, found: versioned.format, supported: LogFormat.version
      )
    }
    let record: HeaderRecord<Skipped>
    do {
      record = try self.codec.decode(HeaderRecord<Skipped>.self, from: payload)
    } catch let error as DecodingError {
      let path = error.codingPathDescription
      throw ActionLogError.missingHeader(
        path: self.path, reason: path.isEmpty ? error.reason : "\(path): \(error.reason)"
      )
    } catch {
      throw ActionLogError.missingHeader(path: self.path, reason: "\(error)")
    }
    guard record.kind == RecordKind.header.rawValue else {
      throw ActionLogError.missingHeader(
        path: self.path, reason: "the first record is a \"\(record.kind)\" record"
      )
    }
    guard let startedAt = LogHeader.parseDate(record.startedAt) else {
      throw ActionLogError.missingHeader(
        path: self.path, reason: "startedAt: \"\(record.startedAt)\" is not an ISO 8601 date"
      )
    }
    var redactions = Redactions.none
    if let manifest = record.redacted {
      do {
        redactions = try Redactions(state: manifest.state, actions: manifest.actions)
      } catch {
        throw ActionLogError.missingHeader(path: self.path, reason: "redacted: \(error)")
      }
    }
    if let schema = record.schema, schema < 1 {
      throw ActionLogError.missingHeader(
        path: self.path, reason: "schema: \(schema) is not a version: versions count from 1"
      )
    }
    self.header = LogHeader(
      format: record.format,
      feature: record.feature,
      stateType: record.stateType,
      actionType: record.actionType,
      startedAt: startedAt,
      checkpointInterval: record.checkpointInterval,
      metadata: record.metadata,
      redactions: redactions,
      schemaVersion: record.schema ?? 1,
      migration: record.migrated,
      hasEffectLedger: record.ledger == 1,
      hasStepUpdates: record.updates == 1
    )
    self.headerLine = LineRange(
      record: 1,
      offset: offset,
      payloadLength: line.count - Framing.prefixLength
    )
  }

  private mutating func read(
    _ line: UnsafeRawBufferPointer, record: Int, offset: Int
  ) -> Outcome {
    func problem(_ kind: RecordProblem.Kind) -> Outcome {
      .problem(RecordProblem(record: record, offset: offset, kind: kind))
    }
    guard let written = Framing.parsePrefix(line) else {
      return problem(.malformedFrame)
    }
    let payload = UnsafeRawBufferPointer(rebasing: line[Framing.prefixLength...])
    let computed = Framing.checksum(payload)
    guard computed == written else {
      return problem(.checksumMismatch(written: written, computed: computed))
    }
    let prefix: RecordEnvelope
    if let fast = RecordEnvelope(fastPathOf: payload) {
      prefix = fast
    } else {
      do {
        prefix = try RecordEnvelope(self.codec.decode(RecordEnvelope.Decoded.self, from: payload))
      } catch let error as DecodingError {
        return problem(.unreadablePayload(error.reason))
      } catch {
        return problem(.unreadablePayload("\(error)"))
      }
    }
    let range = LineRange(
      record: record,
      offset: offset,
      payloadLength: payload.count
    )
    let expected = self.actions.count + 1

    switch prefix.kind {
    case .action?:
      return self.readAction(prefix, range: range, record: record, offset: offset)

    case .checkpoint?:
      return self.readCheckpoint(prefix, range: range, record: record, offset: offset)

    case .note?:
      let seq = prefix.seq ?? self.actions.count
      let note = try? self.codec.decode(NoteRecord.self, from: payload)
      let text = note?.text ?? ""
      if note?.unrecorded == RecordKind.action.rawValue {
        guard seq == expected else {
          return problem(.sequenceGap(expected: expected, found: seq))
        }
        // The action could not be recorded: the note holds its place.
        self.appendPlaceholder(seq: seq, record: record, offset: offset, note: text)
      }
      self.warnings.append(.note(seq: seq, text: text))
      return .ok

    case .shared?:
      guard let seq = prefix.seq, seq == self.actions.count else {
        return problem(
          .misplaced(
            "a shared record after action \(prefix.seq.map(String.init) ?? "(none)"), "
              + "where action \(self.actions.count) was the last"))
      }
      self.sharedLines.append((seq, range))
      return .ok

    case .site?:
      guard self.sites.add(payload, codec: self.codec, line: range, after: self.actions.count)
      else {
        return problem(
          .unreadablePayload(
            "a site record needs \"site\", a number from 1, and \"where\", as Module/File.swift:80"
          ))
      }
      return .ok

    case .end?:
      let count = prefix.seq ?? self.actions.count
      if !IndexRules.endAgrees(count, with: self.actions.count) {
        self.warnings.append(.endCountMismatch(end: count, actions: self.actions.count))
      }
      self.endTime = prefix.time ?? (try? self.codec.decode(EndRecord.self, from: payload))?.time
      return .ended

    case .header?:
      return problem(.misplaced("a second header record"))

    case nil:
      self.warnings.append(.unknownKind(prefix.kindName, record: record, offset: offset))
      return .ok
    }
  }

  /// An action record's place, time and trigger, checked against the actions before it.
  private mutating func readAction(
    _ prefix: RecordEnvelope, range: LineRange, record: Int, offset: Int
  ) -> Outcome {
    func problem(_ kind: RecordProblem.Kind) -> Outcome {
      .problem(RecordProblem(record: record, offset: offset, kind: kind))
    }
    let expected = self.actions.count + 1
    guard let seq = prefix.seq, let time = prefix.time else {
      return problem(.unreadablePayload("an action record needs \"seq\" and \"time\""))
    }
    if seq > expected, self.recovery == .skipDamagedRecords,
      seq - expected <= self.maximumLostActions
    {
      self.keepPlaces(ofLostActions: expected...(seq - 1), record: record, offset: offset)
    } else if !IndexRules.isNextAction(seq, after: self.actions.count) {
      return problem(.sequenceGap(expected: expected, found: seq))
    }
    guard time >= 0 else {
      return problem(
        .unreadablePayload(
          "its time is \(time): an action's time counts nanoseconds from the start, from 0"
        )
      )
    }
    if let trigger = prefix.trigger, !(1..<seq).contains(trigger) {
      return problem(
        .unreadablePayload("its trigger is \(trigger), not " + earlierActions(before: seq))
      )
    }

    self.actions.append(range)
    self.actions.times.append(time)
    self.actions.triggers.append(Int32(clamping: prefix.trigger ?? 0))
    return .ok
  }

  /// A checkpoint record's place: after an action already read.
  private mutating func readCheckpoint(
    _ prefix: RecordEnvelope, range: LineRange, record: Int, offset: Int
  ) -> Outcome {
    func problem(_ kind: RecordProblem.Kind) -> Outcome {
      .problem(RecordProblem(record: record, offset: offset, kind: kind))
    }
    let expected = self.actions.count + 1
    guard let seq = prefix.seq else {
      return problem(.unreadablePayload("a checkpoint record needs \"seq\""))
    }
    if seq > self.actions.count, self.recovery == .skipDamagedRecords,
      seq - self.actions.count <= self.maximumLostActions
    {
      self.keepPlaces(ofLostActions: expected...seq, record: record, offset: offset)
    }
    guard IndexRules.isPlacedCheckpoint(seq, after: self.actions.count) else {
      return problem(.misplaced("a checkpoint after action \(seq), which is not recorded yet"))
    }
    self.checkpointLines[seq] = range
    return .ok
  }
}

extension Scanner {
  /// Keeps the places of actions lost with skipped records, so later records keep their
  /// sequence numbers; reading a lost action says it was lost.
  fileprivate mutating func keepPlaces(
    ofLostActions lost: ClosedRange<Int>, record: Int, offset: Int
  ) {
    self.skipped.append(RecordProblem(record: record, offset: offset, kind: .lostActions(lost)))
    for seq in lost {
      self.appendPlaceholder(
        seq: seq, record: record, offset: offset,
        note: "it was in a damaged record that was skipped"
      )
    }
  }

  /// Holds the place of action `seq`, which cannot be read; reading it says `note`.
  fileprivate mutating func appendPlaceholder(seq: Int, record: Int, offset: Int, note: String) {
    self.actions.append(.unrecorded(record: record, offset: offset))
    self.actions.times.append(self.actions.times.last ?? 0)
    self.actions.triggers.append(0)
    self.unrecordedNotes[seq] = note
  }
}

/// The fields that say which format a header was written with.
private struct VersionedRecord: Decodable {
  var kind: String
  var format: Int
}
