// NB: Over 400 lines on purpose: the queue, its back-pressure and its thread, which share one
// lock and read best together.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends records to an action log on a background thread.
///
/// ```swift
/// let writer = try LogWriter(
///   url: url,
///   header: LogHeader(feature: "todos", stateType: "Todos.State", actionType: "Todos.Action",
///                     startedAt: Date(), checkpointInterval: 100),
///   initialState: state
/// )
/// writer.append(.action(seq: 1, time: .milliseconds(3), origin: .send, value: action,
///                       captured: CapturedValues()))
/// try writer.flush()
/// try writer.close()
/// ```
///
/// The calling thread only enqueues a record: it holds the values, which are copy-on-write, and
/// nothing is encoded there. A background thread takes everything enqueued, encodes and frames
/// it, and appends it with one write, at least every ``Options/flushInterval``, sooner when many
/// records are waiting, and at once on ``flush()`` and ``close()``.
///
/// The writer never drops a record and never rewrites what it wrote: the file is opened for
/// appending only, and an existing file is refused. **Back-pressure**: when
/// ``Options/maximumPendingRecords`` records are waiting, or the waiting records are counted
/// to hold ``Options/maximumPendingBytes`` (a state each, as large as the last one written
/// whole), ``append(_:)`` blocks until the background thread has written enough of them, so
/// memory stays bounded and nothing is lost: a sender faster than the disk is slowed to its
/// pace, never dropped.
///
/// The background thread runs at a low priority (nice 19 on Linux, the utility quality of
/// service on Apple platforms): it works in the time the app leaves idle, and when the
/// scheduler puts it beside a busy thread of the app, it gives way. Back-pressure keeps it from
/// falling behind without bound on a machine the app keeps busy.
///
/// A record that cannot be encoded (a non-finite `Double`, an encoder that throws) becomes a
/// `note` record, and ``Options/onEncodingFailure`` is told.
///
/// The writer is three parts, as LevelDB's is: this queue, with its back-pressure and its
/// ``SyncPolicy``; the `RecordEncoder`, which encodes, redacts and frames; and the `LogFile`,
/// which creates, appends, syncs and closes.
public final class LogWriter: @unchecked Sendable {
  /// The file the writer appends to: for a rolling recording, the segment being written.
  public var url: URL {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.currentURL
  }

  private let options: Options
  private let rolling: Rolling?
  private let condition = NSCondition()
  private var thread: Thread?

  // Guarded by `condition`.
  private var pending: [Entry] = []
  /// An emptied batch whose memory the next `pending` reuses: appending then neither grows a
  /// fresh array (copying it) nor touches memory the process has not used yet (page faults),
  /// both on the caller's thread.
  private var spare: [Entry] = []
  private var enqueued = 0
  /// What the records in `pending` are counted to hold, and those the writer is working on.
  private var pendingBytes = 0
  private var workingBytes = 0
  /// What a waiting state and a waiting action are counted to hold: the size of the last state
  /// the writer encoded whole, and of the last action record.
  private var stateBytes = 4_096
  private var actionBytes = 256
  private var written = 0
  private var acknowledged = 0
  private var flushRequest = 0
  private var isClosing = false
  private var isFinished = false
  private var endTime: Duration?
  /// The first write or sync that failed: the writer has stopped, and nothing appended since
  /// is written (see ``append(_:)``).
  private var failure: ActionLogError?
  /// Whether an `append` has handed ``failure`` back.
  private var failureIsReported = false
  /// The last failure, kept after a rolling recording resumed, for a flush of what it dropped.
  private var lastFailure: ActionLogError?
  /// How many records, counted as `enqueued` counts them, were dropped up to the last one.
  private var droppedThrough = 0
  private var currentURL: URL

  // The writer thread's own; read by others once it has finished.
  private var encoder: RecordEncoder
  private var file: LogFile
  /// The header every segment of a rolling recording starts from.
  private var header: LogHeader
  /// A rolling recording's segments, oldest first, the current one last.
  private var segments: [(url: URL, bytes: Int, start: Duration)] = []

  /// Creates the file and writes its header.
  ///
  /// - Parameters:
  ///   - url: Where to write. The file must not exist.
  ///   - header: What the recording is.
  ///   - initialState: The state before the first action.
  ///   - options: How the writer behaves.
  /// - Throws: ``ActionLogError/fileExists(path:)``, ``ActionLogError/writeFailed(path:reason:)``,
  ///   or the codec's error when the header or initial state cannot be encoded.
  public init(
    url: URL,
    header: LogHeader,
    initialState: some Encodable & Sendable,
    options: Options = Options()
  ) throws {
    self.options = options
    self.rolling = nil
    var encoder = RecordEncoder(
      codec: options.codec, redactions: header.redactions,
      onEncodingFailure: options.onEncodingFailure,
      changesFromValues: options.changesFromValues
    )
    let line = try encoder.header(header, initialState: initialState)
    self.encoder = encoder
    self.header = header
    self.file = try LogFile.create(
      url, header: line, fileSystem: options.fileSystem,
      syncsDirectory: options.syncPolicy != .never)
    self.currentURL = url
    self.start()
  }

  /// Starts a rolling recording: creates its first segment in the folder and writes its header.
  ///
  /// The writer starts a new segment after a checkpoint once the current one is as large or as
  /// long as ``Rolling`` says, from the checkpoint's state, and deletes the oldest segments the
  /// retention no longer keeps. Each segment is created, published and its directory synced
  /// before any action in it is acknowledged; a deletion is synced with the new segment's name.
  ///
  /// - Parameters:
  ///   - rolling: Where the segments go and how much to keep.
  ///   - header: What the recording is; each segment's metadata adds `session`, `segment` and
  ///     `firstAction`.
  ///   - initialState: The state before the first action.
  ///   - options: How the writer behaves.
  public init(
    rolling: Rolling,
    header: LogHeader,
    initialState: some Encodable & Sendable,
    options: Options = Options()
  ) throws {
    self.options = options
    self.rolling = rolling
    var encoder = RecordEncoder(
      codec: options.codec, redactions: header.redactions,
      onEncodingFailure: options.onEncodingFailure,
      changesFromValues: options.changesFromValues
    )
    var header = header
    header.metadata["session"] = rolling.session
    self.header = header
    let first = Self.segmentHeader(header, index: 1, firstAction: 1)
    let line = try encoder.header(first, initialState: initialState)
    self.encoder = encoder
    let url = rolling.directory.appendingPathComponent(
      LogDirectory.segmentName(session: rolling.session, index: 1))
    self.file = try LogFile.create(
      url, header: line, fileSystem: options.fileSystem,
      syncsDirectory: options.syncPolicy != .never)
    self.currentURL = url
    self.segments = [(url, line.count, .zero)]
    self.start()
  }

  private static func segmentHeader(_ header: LogHeader, index: Int, firstAction: Int) -> LogHeader
  {
    var header = header
    header.metadata["segment"] = String(index)
    header.metadata["firstAction"] = String(firstAction)
    return header
  }

  private func start() {
    let thread = Thread { [self] in self.run() }
    thread.name = "ActionLog.LogWriter"
    thread.qualityOfService = .utility
    self.thread = thread
    thread.start()
  }

  /// Enqueues a record. Returns at once unless ``Options/maximumPendingRecords`` records are
  /// waiting, in which case it waits for the writer to take them.
  ///
  /// Records appended after ``close()`` are ignored. Once a write or a sync has failed (a full
  /// disk, an I/O error) the writer has stopped: records are dropped, and the first `append` to
  /// see the failure returns it, so that its caller says once that recording stopped. A rolling
  /// recording's writer starts again in a new segment at the first checkpoint it can (see
  /// ``Rolling``), and a failure after that is returned once again.
  ///
  /// - Returns: The failure that stopped the writer, to the first call after it; else `nil`.
  @discardableResult
  public func append(_ entry: consuming Entry) -> ActionLogError? {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard !self.isClosing else { return nil }
    var stopped: ActionLogError?
    if let failure = self.failure {
      if !self.failureIsReported {
        self.failureIsReported = true
        stopped = failure
      }
      // NB: A rolling recording's writer still takes the records, to start again at a
      // checkpoint once it can (it drops the others); a single file's has stopped for good.
      guard self.rolling != nil else { return stopped }
    }
    let bytes = self.estimatedBytes(of: entry)
    // NB: One record always goes: a bound below one record's size must not stop the writer.
    while self.pending.count >= self.options.maximumPendingRecords
      || (self.pendingBytes + self.workingBytes > 0
        && self.pendingBytes + self.workingBytes + bytes > self.options.maximumPendingBytes),
      !self.isFinished
    {
      self.condition.broadcast()
      self.condition.wait()
    }
    // NB: Moved, not copied: a copy would retain what the record holds here and release it
    // again when the caller's is destroyed, on the sending thread.
    self.pending.append(consume entry)
    self.pendingBytes += bytes
    self.enqueued += 1
    if self.pending.count == self.options.batchSize {
      self.condition.broadcast()
    }
    return stopped
  }

  /// What a waiting record is counted to hold (see ``Options/maximumPendingBytes``). Call it
  /// holding `condition`.
  private func estimatedBytes(of entry: Entry) -> Int {
    switch entry {
    case .action(_, _, _, _, _, _, nil, _): self.actionBytes
    case .action: self.actionBytes + self.stateBytes
    case .checkpoint: self.stateBytes
    case .note, .shared: 256
    }
  }

  /// Waits until every record appended before this call is written (and, with
  /// ``SyncPolicy/onFlush`` or ``SyncPolicy/always``, synced to disk).
  ///
  /// - Throws: ``ActionLogError/writeFailed(path:reason:)`` when a write failed.
  public func flush() throws {
    self.condition.lock()
    defer { self.condition.unlock() }
    let target = self.enqueued
    self.flushRequest = max(self.flushRequest, target)
    self.condition.broadcast()
    while self.acknowledged < target, !self.isFinished {
      // NB: A stopped rolling recording's writer may start again at a checkpoint among the
      // records asked for: it has its turn at them first.
      if self.failure != nil, self.rolling == nil || self.written >= target { break }
      self.condition.wait()
    }
    if let failure = self.failure { throw failure }
    // NB: A rolling recording that resumed after a failure wrote on from a later checkpoint:
    // a flush that asks for records of the gap does not get them.
    if target <= self.droppedThrough, let failure = self.lastFailure { throw failure }
  }

  /// Writes everything still waiting, then an `end` record, syncs, and closes the file.
  ///
  /// Calling it again does nothing.
  ///
  /// - Parameter time: The recording's duration, for the end record; by default the time of the
  ///   last action.
  /// - Throws: ``ActionLogError/writeFailed(path:reason:)`` when a write failed.
  public func close(at time: Duration? = nil) throws {
    self.condition.lock()
    if !self.isClosing {
      self.isClosing = true
      self.endTime = time
      self.condition.broadcast()
    }
    while !self.isFinished {
      self.condition.wait()
    }
    let failure = self.failure
    self.condition.unlock()
    if let failure { throw failure }
  }

  // MARK: - The writer thread

  private func run() {
    #if os(Linux)
      // NB: On Linux a nice value belongs to a thread: `0` is this one. Where the scheduler places
      // it beside the thread that sends actions, this keeps the sending thread's share of the
      // processor (measured by replay-bench: Store.send with the writer busy).
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    #endif
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 16)
    while true {
      self.condition.lock()
      // NB: A stopped writer acknowledges nothing more: a flush must not keep it awake.
      while self.pending.isEmpty, !self.isClosing,
        self.flushRequest <= self.acknowledged || self.failure != nil
      {
        if !self.condition.wait(until: Date(timeIntervalSinceNow: self.intervalSeconds)) {
          break
        }
      }
      var batch: [Entry] = []
      swap(&batch, &self.spare)
      swap(&batch, &self.pending)
      self.workingBytes = self.pendingBytes
      self.pendingBytes = 0
      let batchEnd = self.enqueued
      let isClosing = self.isClosing
      let endTime = self.endTime
      // NB: After a failed write nothing more is appended: the file may end in a torn record,
      // which a reader takes for the end of the log, and must not have whole records after it.
      // After a failed sync nothing can be vouched for: the kernel may have dropped the pages.
      let stoppedBy = self.failure
      let batchStart = batchEnd - batch.count
      let wantsSync =
        isClosing || self.options.syncPolicy == .always
        || (self.options.syncPolicy == .onFlush && self.flushRequest > self.acknowledged)
      self.condition.broadcast()
      self.condition.unlock()

      var error: String?
      // NB: A stopped writer drops what it is given; a rolling one starts again in a new segment
      // from the batch's last checkpoint once it can (the disk has room again), and writes on
      // from there. `resumedAfter` is the index of that checkpoint.
      var hasStopped = stoppedBy != nil
      var firstWritten = batch.startIndex
      if let stoppedBy {
        firstWritten = batch.endIndex
        if let rolling = self.rolling, let resumedAfter = self.resume(rolling, batch, stoppedBy) {
          firstWritten = resumedAfter + 1
          hasStopped = false
        } else {
          for case let .action(_, time, _, _, _, _, _, _) in batch {
            self.encoder.skip(actionAt: time)
          }
        }
      }
      var lastAction: Int?
      // NB: By index: each entry is read where it is, not copied out of the batch.
      for index in firstWritten..<batch.endIndex {
        if case let .action(seq, _, _, _, _, _, _, _) = batch[index] { lastAction = seq }
        self.encoder.append(batch[index], to: &buffer)
        if let rolling = self.rolling, case let .checkpoint(seq, state) = batch[index],
          self.rotationIsDue(rolling, buffered: buffer.count)
        {
          error = error ?? self.rotate(rolling, after: seq, state: state, buffer: &buffer)
        }
      }
      // NB: Emptied here, so the entries are destroyed on this thread, and handed back to be
      // the next `pending`: kept while the batches fill it (a burst, when growing it again would
      // copy it and fault in fresh pages on the sending thread), given back once they do not.
      let keepsMemory =
        batch.capacity / 2 <= self.options.batchSize || batch.count * 4 >= batch.capacity
      batch.removeAll(keepingCapacity: keepsMemory)
      if isClosing, !hasStopped {
        self.encoder.appendEnding(at: endTime, to: &buffer)
      }
      if error == nil, !buffer.isEmpty {
        error = self.file.write(buffer)
        if self.rolling != nil { self.segments[self.segments.count - 1].bytes += buffer.count }
      }
      if error == nil, let lastAction { self.writtenAction = lastAction }
      buffer.removeAll(keepingCapacity: true)
      if error == nil, !hasStopped, wantsSync, self.options.syncPolicy != .never {
        error = self.file.sync()
      }
      if isClosing, let closing = self.file.close(), error == nil {
        error = closing
      }

      self.condition.lock()
      if stoppedBy != nil, !hasStopped {
        // NB: Resumed: what was dropped stays unacknowledged (`flush` says so for it), and a
        // later failure is said again.
        self.droppedThrough = batchStart + firstWritten
        self.failure = nil
        self.failureIsReported = false
      } else if hasStopped {
        self.droppedThrough = batchEnd
      }
      if let error, self.failure == nil {
        self.failure = .writeFailed(path: self.file.url.path, reason: error)
        self.lastFailure = self.failure
      }
      self.written = batchEnd
      self.workingBytes = 0
      (self.stateBytes, self.actionBytes) = self.encoder.sizes
      self.spare = batch
      // NB: A batch whose write or sync failed is not acknowledged, nor is any after it.
      if self.failure == nil, self.options.syncPolicy == .never || wantsSync {
        self.acknowledged = batchEnd
      }
      if isClosing {
        self.isFinished = true
      }
      self.condition.broadcast()
      self.condition.unlock()
      if isClosing { return }
    }
  }

  // MARK: - Rotation (the writer thread's)

  private func rotationIsDue(_ rolling: Rolling, buffered: Int) -> Bool {
    guard let current = self.segments.last else { return false }
    if current.bytes + buffered >= rolling.segmentBytes { return true }
    if let duration = rolling.segmentDuration,
      self.encoder.lastTime - current.start >= duration
    {
      return true
    }
    return false
  }

  /// Starts the next segment from the state after action `seq`. The current segment is written
  /// and synced up to that action first: the next one starts from its state, so once the next
  /// one's name is durable, a power loss must not take the actions that led there. Then the next
  /// segment is created and published, so that a failure (a full disk) leaves the current one
  /// going on; then the current one is ended and closed, and what the retention no longer keeps
  /// is deleted.
  ///
  /// - Returns: The error text of a failed write to the current segment.
  private func rotate(
    _ rolling: Rolling, after seq: Int, state: any Encodable & Sendable,
    buffer: inout [UInt8]
  ) -> String? {
    if !buffer.isEmpty {
      if let error = self.file.write(buffer) { return error }
      self.segments[self.segments.count - 1].bytes += buffer.count
      buffer.removeAll(keepingCapacity: true)
    }
    if self.options.syncPolicy != .never, let error = self.file.sync() { return error }
    let index = self.segments.count + self.deletedSegments + 1
    let header = Self.segmentHeader(self.header, index: index, firstAction: seq + 1)
    let url = rolling.directory.appendingPathComponent(
      LogDirectory.segmentName(session: rolling.session, index: index))
    let (next, line): (LogFile, [UInt8])
    do {
      (next, line) = try self.createSegment(url, header: header, state: state)
    } catch {
      // NB: Said once for a run of failures (a full disk fails every checkpoint until there is
      // room again), not at every attempt.
      if !self.rotationIsFailing {
        self.rotationIsFailing = true
        let reason = "\(error)".trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        self.options.onRotationFailure?(
          """
          could not start segment \(index) (\(url.lastPathComponent)): \(reason). Recording goes \
          on in \(self.file.url.lastPathComponent); each checkpoint tries again
          """)
      }
      return nil
    }
    self.rotationIsFailing = false
    self.encoder.appendEnding(at: nil, to: &buffer, notesUnmatched: false)
    var error = self.file.write(buffer)
    self.segments[self.segments.count - 1].bytes += buffer.count
    buffer.removeAll(keepingCapacity: true)
    if error == nil, self.options.syncPolicy != .never { error = self.file.sync() }
    if let closing = self.file.close(), error == nil { error = closing }
    self.file = next
    self.encoder.base = seq
    self.segments.append((url, line.count, self.encoder.lastTime))
    self.condition.lock()
    self.currentURL = url
    self.condition.unlock()
    self.deleteExpiredSegments(rolling)
    return error
  }

  /// Creates a segment at `url` that starts from `state`, its header written and published;
  /// the encoder starts the new file only once it exists.
  private func createSegment(
    _ url: URL, header: LogHeader, state: any Encodable & Sendable
  ) throws -> (LogFile, [UInt8]) {
    var encoder = self.encoder
    let line = try encoder.header(header, initialState: state)
    let file = try LogFile.create(
      url, header: line, fileSystem: self.options.fileSystem,
      syncsDirectory: self.options.syncPolicy != .never)
    self.encoder = encoder
    return (file, line)
  }

  private var deletedSegments = 0
  private var rotationIsFailing = false
  /// The last action whose write succeeded.
  private var writtenAction = 0

  /// After a failed write or sync stopped a rolling recording: starts a new segment from the
  /// batch's last checkpoint, with a `gap` in its metadata that says which actions are missing
  /// and why. The stopped segment is closed as it is (a torn record at its end reads as its end).
  ///
  /// - Returns: The index of the checkpoint the new segment starts from; `nil` when the batch has
  ///   none or the segment could not be created (the disk is still full), and the writer stays
  ///   stopped until the next one.
  private func resume(
    _ rolling: Rolling, _ batch: [Entry], _ failure: ActionLogError
  ) -> Int? {
    guard
      let index = batch.lastIndex(where: {
        if case .checkpoint = $0 { true } else { false }
      }),
      case let .checkpoint(seq, state) = batch[index]
    else { return nil }
    for case let .action(_, time, _, _, _, _, _, _) in batch[...index] {
      self.encoder.skip(actionAt: time)
    }
    let segment = self.segments.count + self.deletedSegments + 1
    var header = Self.segmentHeader(self.header, index: segment, firstAction: seq + 1)
    let first = self.writtenAction + 1
    let reason: String =
      if case let .writeFailed(_, reason) = failure { reason } else { "\(failure)" }
    header.metadata["gap"] =
      first <= seq
      ? "actions \(first)–\(seq) (\(seq - first + 1)) were not recorded: \(reason)"
      : "recording stopped after action \(seq) (\(reason)) and resumed here"
    let url = rolling.directory.appendingPathComponent(
      LogDirectory.segmentName(session: rolling.session, index: segment))
    guard let (next, line) = try? self.createSegment(url, header: header, state: state) else {
      return nil
    }
    _ = self.file.close()
    self.file = next
    self.encoder.base = seq
    self.writtenAction = seq
    self.segments.append((url, line.count, self.encoder.lastTime))
    self.condition.lock()
    self.currentURL = url
    self.condition.unlock()
    self.deleteExpiredSegments(rolling)
    return index
  }

  /// Deletes the oldest segments the retention does not keep (never the current one), then
  /// syncs the directory once.
  private func deleteExpiredSegments(_ rolling: Rolling) {
    var deleted = 0
    while self.segments.count > 1 {
      let total = self.segments.reduce(0) { $0 + $1.bytes }
      let tooLarge = rolling.retention.bytes.map { total > $0 } ?? false
      // NB: The oldest goes once the next one starts inside the kept age: what it holds is older.
      let tooOld =
        rolling.retention.age.map { self.segments[1].start <= self.encoder.lastTime - $0 } ?? false
      guard tooLarge || tooOld else { break }
      try? self.options.fileSystem.unlink(self.segments.removeFirst().url.path)
      deleted += 1
    }
    let folderWide = self.deleteOtherSessionsSegments(rolling)
    deleted += folderWide.own
    self.deletedSegments += deleted
    guard deleted + folderWide.all > 0 else { return }
    if self.options.syncPolicy != .never {
      try? self.options.fileSystem.syncDirectory(rolling.directory.path)
    }
  }

  /// Holds the retention's bytes for the folder, not only for this session: where other
  /// sessions (an earlier launch, a second window) have segments in it too, the oldest segments
  /// of any session go first, by when they were last written, until the folder fits. A session's
  /// segment that is being written (its file is locked) is never deleted, and it is counted as
  /// a whole segment, which it may grow to before its writer next deletes: so the folder holds
  /// at most the retention and the segment this writer is writing.
  ///
  /// - Returns: How many of this session's own segments were deleted, and how many in all.
  private func deleteOtherSessionsSegments(_ rolling: Rolling) -> (own: Int, all: Int) {
    guard let limit = rolling.retention.bytes,
      let all = try? LogDirectory.segments(
        in: rolling.directory, fileSystem: self.options.fileSystem),
      all.contains(where: { $0.session != rolling.session })
    else { return (0, 0) }
    let fileSystem = self.options.fileSystem
    struct Candidate {
      var url: URL
      var bytes: Int
      var modified: Date
      var isOwn: Bool
    }
    var total = 0
    var candidates: [Candidate] = []
    let newestOfSession = Dictionary(grouping: all, by: \.session).mapValues { $0.max()! }
    for segment in all {
      let isOwn = segment.session == rolling.session
      if isOwn, segment.url == self.segments.last?.url {
        total += self.segments.last?.bytes ?? 0
        continue
      }
      guard let attributes = fileSystem.attributes(of: segment.url.path) else { continue }
      if !isOwn, newestOfSession[segment.session] == segment,
        fileSystem.lockHolder(of: segment.url.path) != nil
      {
        total += max(attributes.bytes, rolling.segmentBytes)
        continue
      }
      total += attributes.bytes
      candidates.append(
        Candidate(
          url: segment.url, bytes: attributes.bytes, modified: attributes.modified, isOwn: isOwn))
    }
    candidates.sort { $0.modified < $1.modified }
    var deleted = (own: 0, all: 0)
    for candidate in candidates where total > limit {
      try? fileSystem.unlink(candidate.url.path)
      total -= candidate.bytes
      deleted.all += 1
      if candidate.isOwn, let index = self.segments.firstIndex(where: { $0.url == candidate.url }) {
        self.segments.remove(at: index)
        deleted.own += 1
      }
    }
    return deleted
  }

  private var intervalSeconds: Double {
    let (seconds, attoseconds) = self.options.flushInterval.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The redaction paths that matched no value in the whole recording: likely misspelt, since
  /// what they meant to hide may be in the file. Known once ``close()`` has returned; empty
  /// before.
  public var unmatchedRedactions: Redactions {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard self.isFinished else { return .none }
    return self.encoder.unmatchedRedactions
  }
}
