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
public final class LogWriter: @unchecked Sendable {
  /// When the writer asks the system to put written records on disk (`fsync`).
  public enum SyncPolicy: Sendable, Equatable {
    /// Never: records survive the process being killed, not the machine losing power.
    case never
    /// On ``LogWriter/flush()`` and ``LogWriter/close()``: what a flush acknowledged survives a
    /// power loss.
    case onFlush
    /// After every write, before any record is acknowledged: slowest, and the safest.
    case always
  }

  /// How the writer behaves.
  public struct Options: Sendable {
    /// When to `fsync`; ``SyncPolicy/onFlush`` by default.
    public var syncPolicy: SyncPolicy
    /// The longest a record waits before it is written; 100 ms by default.
    public var flushInterval: Duration
    /// How many records may wait before the writer is woken early; 1,024 by default.
    public var batchSize: Int
    /// How many records may wait before ``LogWriter/append(_:)`` blocks; 65,536 by default.
    public var maximumPendingRecords: Int
    /// Encodes payloads.
    public var codec: any RecordCodec
    /// Told, on the writer's thread, when a record could not be encoded and a note replaced it.
    public var onEncodingFailure: (@Sendable (String) -> Void)?

    /// Creates options.
    public init(
      syncPolicy: SyncPolicy = .onFlush,
      flushInterval: Duration = .milliseconds(100),
      batchSize: Int = 1_024,
      maximumPendingRecords: Int = 65_536,
      codec: any RecordCodec = CompactJSONCodec(),
      onEncodingFailure: (@Sendable (String) -> Void)? = nil
    ) {
      self.syncPolicy = syncPolicy
      self.flushInterval = flushInterval
      self.batchSize = max(1, batchSize)
      self.maximumPendingRecords = max(1, maximumPendingRecords)
      self.codec = codec
      self.onEncodingFailure = onEncodingFailure
    }
  }

  /// A record to append.
  public enum Entry: Sendable {
    /// An action the store processed.
    case action(
      seq: Int,
      time: Duration,
      origin: RecordedOrigin,
      value: any Encodable & Sendable,
      captured: CapturedValues
    )
    /// The state after action `seq`.
    case checkpoint(seq: Int, state: any Encodable & Sendable)
    /// A warning, attached to the action `seq`.
    case note(seq: Int, text: String)
  }

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

  private let redactions: Redactions
  private let actionPaths: [RedactionPath]
  private let statePaths: [RedactionPath]
  // Written by the writer thread; read once it has finished.
  private var placeholders = RedactionPlaceholders()

  // The writer thread's own.
  private var lastActionSeq = 0
  private var lastTime: Duration = .zero

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
    let record = HeaderRecord(
      actionType: header.actionType,
      checkpointInterval: header.checkpointInterval,
      feature: header.feature,
      format: header.format,
      initialState: AnyEncodable(value: initialState),
      kind: RecordKind.header.rawValue,
      metadata: header.metadata,
      redacted: header.redactions.manifest,
      startedAt: header.startedAtText,
      stateType: header.stateType
    )
    self.redactions = header.redactions
    self.actionPaths = header.redactions.actions.map { $0.under("value") }
    self.statePaths = header.redactions.state.map { $0.under("value") }
    var payload = try options.codec.encode(record)
    if !header.redactions.state.isEmpty {
      payload = try JSONBytes.redact(
        payload,
        paths: header.redactions.state.map { $0.under("initialState") },
        placeholders: &self.placeholders
      )
    }
    var line: [UInt8] = []
    Framing.append(payload: payload, to: &line)

    self.descriptor = try Self.create(url, header: line)
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

  /// Creates the log so that it appears with its header already in it: the header is written to
  /// a hidden file beside it, which is then linked to the final name. A process killed at any
  /// moment leaves no log, or one with a whole header; never an empty or half-written one.
  /// Linking fails when the name exists, so nothing is overwritten.
  ///
  /// - Parameter syncsFirst: Sync the bytes to disk before the name appears (for a file written
  ///   whole, such as an export).
  /// - Returns: The open descriptor, appending.
  static func create(_ url: URL, header: [UInt8], syncsFirst: Bool = false) throws -> Int32 {
    if FileManager.default.fileExists(atPath: url.path) {
      throw ActionLogError.fileExists(path: url.path)
    }
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
    let descriptor = open(
      temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644
    )
    guard descriptor >= 0 else {
      throw ActionLogError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
    }
    defer { unlink(temporary.path) }
    var error = Self.writeAll(header, to: descriptor)
    if error == nil, syncsFirst, fsync(descriptor) != 0 {
      error = String(cString: strerror(errno))
    }
    if let error {
      _ = closeDescriptor(descriptor)
      throw ActionLogError.writeFailed(path: url.path, reason: error)
    }
    guard link(temporary.path, url.path) == 0 else {
      let code = errno
      _ = closeDescriptor(descriptor)
      if code == EEXIST { throw ActionLogError.fileExists(path: url.path) }
      throw ActionLogError.writeFailed(path: url.path, reason: String(cString: strerror(code)))
    }
    return descriptor
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
        self.encode(entry, into: &buffer)
      }
      // NB: Emptied here, so the entries are destroyed on this thread, and handed back to be
      // the next `pending` (unless it is larger than a batch needs to be).
      batch.removeAll(keepingCapacity: batch.capacity / 2 <= self.options.batchSize)
      if isClosing {
        let unmatched = self.unmatched
        for path in unmatched.state {
          self.appendNote(seq: self.lastActionSeq, text: "the state redaction path \(path) matched no value", unrecorded: nil, into: &buffer)
        }
        for path in unmatched.actions {
          self.appendNote(seq: self.lastActionSeq, text: "the action redaction path \(path) matched no value", unrecorded: nil, into: &buffer)
        }
        self.encodeEnd(time: endTime, into: &buffer)
      }
      var error = buffer.isEmpty ? nil : Self.writeAll(buffer, to: self.descriptor)
      buffer.removeAll(keepingCapacity: true)
      if error == nil, wantsSync, self.options.syncPolicy != .never, fsync(self.descriptor) != 0 {
        error = String(cString: strerror(errno))
      }
      if isClosing, closeDescriptor(self.descriptor) != 0, error == nil {
        error = String(cString: strerror(errno))
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

  private func encode(_ entry: Entry, into buffer: inout [UInt8]) {
    let codec = self.options.codec
    switch entry {
    case let .action(seq, time, origin, value, captured):
      self.lastActionSeq = seq
      self.lastTime = time
      let trigger: Int? = if case let .effect(parent) = origin { parent } else { nil }
      let record = ActionRecord(
        kind: RecordKind.action.rawValue,
        seq: seq,
        source: trigger == nil ? "send" : "effect",
        time: Int64(time.nanoseconds),
        trigger: trigger,
        uses: captured.isEmpty ? nil : captured,
        value: AnyEncodable(value: value)
      )
      do {
        Framing.append(payload: try self.redacted(codec.encode(record), self.actionPaths), to: &buffer)
      } catch {
        let text = "action \(seq) could not be encoded: \(error)"
        self.options.onEncodingFailure?(text)
        self.appendNote(seq: seq, text: text, unrecorded: "action", into: &buffer)
      }

    case let .checkpoint(seq, state):
      let record = CheckpointRecord(
        kind: RecordKind.checkpoint.rawValue, seq: seq, value: AnyEncodable(value: state)
      )
      do {
        Framing.append(payload: try self.redacted(codec.encode(record), self.statePaths), to: &buffer)
      } catch {
        let text = "the checkpoint after action \(seq) could not be encoded: \(error)"
        self.options.onEncodingFailure?(text)
        self.appendNote(seq: seq, text: text, unrecorded: "checkpoint", into: &buffer)
      }

    case let .note(seq, text):
      self.appendNote(seq: seq, text: text, unrecorded: nil, into: &buffer)
    }
  }

  private func redacted(_ payload: [UInt8], _ paths: [RedactionPath]) throws -> [UInt8] {
    paths.isEmpty ? payload : try JSONBytes.redact(payload, paths: paths, placeholders: &self.placeholders)
  }

  /// The redaction paths that matched no value in the whole recording: likely misspelt, since
  /// what they meant to hide may be in the file. Known once ``close()`` has returned; empty before.
  public var unmatchedRedactions: Redactions {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard self.isFinished else { return .none }
    return self.unmatched
  }

  private var unmatched: Redactions {
    let hits = self.placeholders.hits
    return Redactions(
      statePaths: self.redactions.state.filter { hits[$0.description] == nil },
      actionPaths: self.redactions.actions.filter { hits[$0.description] == nil }
    )
  }

  private func appendNote(seq: Int, text: String, unrecorded: String?, into buffer: inout [UInt8]) {
    let note = NoteRecord(
      kind: RecordKind.note.rawValue, seq: seq, text: text, unrecorded: unrecorded
    )
    // NB: A note holds only a string and integers, which always encode.
    if let payload = try? self.options.codec.encode(note) {
      Framing.append(payload: payload, to: &buffer)
    }
  }

  private func encodeEnd(time: Duration?, into buffer: inout [UInt8]) {
    let end = EndRecord(
      kind: RecordKind.end.rawValue,
      seq: self.lastActionSeq,
      time: Int64((time ?? self.lastTime).nanoseconds)
    )
    if let payload = try? self.options.codec.encode(end) {
      Framing.append(payload: payload, to: &buffer)
    }
  }

  /// Writes all of `bytes`, retrying partial writes; returns the error text on failure.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let count = write(descriptor, base + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        offset += count
      }
      return nil
    }
  }
}

extension Duration {
  /// The duration in whole nanoseconds.
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = self.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}

/// Closes a file descriptor; a free function, because inside `LogWriter` `close` is the method.
func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
