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
/// ``Options/maximumPendingRecords`` records are waiting, ``append(_:)`` blocks until the
/// background thread has taken them, so memory stays bounded and nothing is lost.
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
  /// The file the writer appends to.
  public let url: URL

  private let options: Options
  private let descriptor: Int32
  private let condition = NSCondition()
  private var thread: Thread?

  // Guarded by `condition`.
  private var pending: [Entry] = []
  /// An emptied batch whose memory the next `pending` reuses: appending then neither grows a
  /// fresh array (copying it) nor touches memory the process has not used yet (page faults),
  /// both on the caller's thread.
  private var spare: [Entry] = []
  private var enqueued = 0
  private var written = 0
  private var acknowledged = 0
  private var flushRequest = 0
  private var isClosing = false
  private var isFinished = false
  private var endTime: Duration?
  private var failure: ActionLogError?

  // The writer thread's own; read by others once it has finished.
  private var encoder: RecordEncoder

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
    self.url = url
    self.options = options
    var encoder = RecordEncoder(
      codec: options.codec, redactions: header.redactions,
      onEncodingFailure: options.onEncodingFailure
    )
    let line = try encoder.header(header, initialState: initialState)
    self.encoder = encoder
    self.descriptor = try LogFile.create(url, header: line)
    let thread = Thread { [self] in self.run() }
    thread.name = "ActionLog.LogWriter"
    thread.qualityOfService = .utility
    self.thread = thread
    thread.start()
  }

  /// Enqueues a record. Returns at once unless ``Options/maximumPendingRecords`` records are
  /// waiting, in which case it waits for the writer to take them.
  ///
  /// Records appended after ``close()`` are ignored.
  public func append(_ entry: consuming Entry) {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard !self.isClosing else { return }
    while self.pending.count >= self.options.maximumPendingRecords, !self.isFinished {
      self.condition.broadcast()
      self.condition.wait()
    }
    // NB: Moved, not copied: a copy would retain what the record holds here and release it
    // again when the caller's is destroyed, on the sending thread.
    self.pending.append(consume entry)
    self.enqueued += 1
    if self.pending.count == self.options.batchSize {
      self.condition.broadcast()
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
    while self.acknowledged < target, self.failure == nil, !self.isFinished {
      self.condition.wait()
    }
    if let failure = self.failure { throw failure }
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
      while self.pending.isEmpty, !self.isClosing, self.flushRequest <= self.acknowledged {
        if !self.condition.wait(until: Date(timeIntervalSinceNow: self.intervalSeconds)) {
          break
        }
      }
      var batch: [Entry] = []
      swap(&batch, &self.spare)
      swap(&batch, &self.pending)
      let batchEnd = self.enqueued
      let isClosing = self.isClosing
      let endTime = self.endTime
      let wantsSync =
        isClosing || self.options.syncPolicy == .always
        || (self.options.syncPolicy == .onFlush && self.flushRequest > self.acknowledged)
      self.condition.broadcast()
      self.condition.unlock()

      for entry in batch {
        self.encoder.append(entry, to: &buffer)
      }
      // NB: Emptied here, so the entries are destroyed on this thread, and handed back to be
      // the next `pending` (unless it is larger than a batch needs to be).
      batch.removeAll(keepingCapacity: batch.capacity / 2 <= self.options.batchSize)
      if isClosing {
        self.encoder.appendEnding(at: endTime, to: &buffer)
      }
      var error = buffer.isEmpty ? nil : LogFile.writeAll(buffer, to: self.descriptor)
      buffer.removeAll(keepingCapacity: true)
      if error == nil, wantsSync, self.options.syncPolicy != .never {
        error = LogFile.sync(self.descriptor)
      }
      if isClosing, let closing = LogFile.close(self.descriptor), error == nil {
        error = closing
      }

      self.condition.lock()
      if let error, self.failure == nil {
        self.failure = .writeFailed(path: self.url.path, reason: error)
      }
      self.written = batchEnd
      self.spare = batch
      if self.options.syncPolicy == .never || wantsSync {
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
