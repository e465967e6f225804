import ActionLogScan
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scan of a healthy recording, split across the processor's cores.
///
/// The records after the header are cut into four chunks per core at line boundaries; on a thread
/// of its own, each chunk's lines are read by the C scanner in `ActionLogScan` (framing,
/// checksums three lines at a time, envelopes, each action's seq compared as text), and the
/// chunks' indexes become segments of one, in order. An action's time and trigger are checked
/// to be numbers, and read from its line when asked for. It handles what a recorder writes when
/// nothing went wrong:
/// actions, checkpoints, site records, an end record last, and a torn last line. Anything else (a damaged line,
/// a note, a record kind or layout it does not know, a gap) makes it give up, and the sequential
/// scanner, which says what is wrong and where, reads the file instead.
enum FastScan {
  /// The index of the records from `start` to the end of `bytes`, or `nil` to leave them to the
  /// sequential scanner.
  static func scan(
    _ bytes: UnsafeRawBufferPointer, from start: Int, maximumLineLength: Int,
    parallelFrom threshold: Int = Self.parallelThreshold
  ) -> Result? {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
    let total = bytes.count
    // A torn last line: everything before it is read, and it is reported.
    var end = total
    var tornTail: (offset: Int, length: Int)?
    if total > start, base[total - 1] != UInt8(ascii: "\n") {
      // NB: Looked for no further back than a record may be long, which is checked below.
      let floor = max(start, total - (maximumLineLength + Framing.prefixLength + 1))
      var lastNewline = total - 1
      while lastNewline >= floor, base[lastNewline] != UInt8(ascii: "\n") { lastNewline -= 1 }
      end = lastNewline + 1
      tornTail = (end, total - end)
      // Longer than a record may be: the sequential scanner reports it as too long.
      guard total - end <= maximumLineLength + Framing.prefixLength else { return nil }
    }

    // Chunk boundaries, each just after a newline. NB: Four chunks per core, each taken by
    // whichever thread is free: a core that the machine slows down (another process, a shared
    // host) then holds back a quarter of its share rather than all of it.
    let cores = min(max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), 8)
    // NB: Each chunk's places count from its start, and must stay within a segment's limit.
    let chunkCount = max(end - start >= threshold ? cores * 4 : 1, (end - start) / (1 << 30) + 1)
    var boundaries = [start]
    for index in 1..<max(chunkCount, 1) {
      let guess = start + (end - start) * index / chunkCount
      guard guess > boundaries.last!, guess < end,
        let newline = memchr(base + guess, Int32(UInt8(ascii: "\n")), end - guess)
      else { continue }
      let boundary = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline)) + 1
      if boundary < end, boundary > boundaries.last! { boundaries.append(boundary) }
    }
    boundaries.append(end)
    for index in 1..<boundaries.count
    where boundaries[index] - boundaries[index - 1] >= Int(ALS_SEGMENT_LIMIT) {
      return nil
    }

    let chunks = boundaries.count - 1
    let results = UnsafeMutableBufferPointer<Chunk?>.allocate(capacity: chunks)
    results.initialize(repeating: nil)
    defer { results.deinitialize().deallocate() }
    // NB: Each thread writes only its own element of `results`, and reads bytes no one writes.
    struct Work: @unchecked Sendable {
      let base: UnsafePointer<UInt8>
      let boundaries: [Int]
      let results: UnsafeMutableBufferPointer<Chunk?>
      let maximumLineLength: Int

      // NB: The chunk's pages are mapped by the page faults of its scan, not beforehand with
      // `MADV_POPULATE_READ`: that walks the mapping a page at a time, and cost more than the
      // faults, which map a freshly written file's large folios whole.
      func callAsFunction(_ index: Int) {
        self.results[index] = Chunk.scan(
          self.base, from: self.boundaries[index], to: self.boundaries[index + 1],
          isLast: index == self.results.count - 1, maximumLineLength: self.maximumLineLength
        )
      }
    }
    let work = Work(
      base: base, boundaries: boundaries, results: results, maximumLineLength: maximumLineLength
    )
    if chunks == 1 {
      work(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: chunks) { work($0) }
    }

    // Join the chunks: each must go on where the one before stopped. Each chunk's array
    // becomes a segment of the index, so nothing is copied.
    guard let first = results[0].take(), var result = Result(first) else { return nil }
    result.tornTail = tornTail
    var record = 1 + first.lineCount
    for index in 1..<max(chunks, 1) {
      guard let chunk = results[index].take() else { return nil }
      let lastSeq = result.actions.count
      if let first = chunk.firstSeq, !IndexRules.isNextAction(first, after: lastSeq) {
        return nil
      }
      if let early = chunk.checkpointsBeforeActions,
        !IndexRules.isPlacedCheckpoint(early.lowest, after: lastSeq)
          || !IndexRules.isPlacedCheckpoint(early.highest, after: lastSeq)
      {
        return nil
      }
      if result.endSeq != nil, chunk.lineCount > 0 { return nil }
      result.append(chunk, numberedFrom: record + 1)
      if let endSeq = chunk.endSeq {
        guard IndexRules.endAgrees(endSeq, with: result.actions.count) else { return nil }
        result.endSeq = endSeq
        result.endTime = chunk.endTime
      }
      record += chunk.lineCount
    }
    // Bytes after the end record: the sequential scanner says so.
    if result.endTime != nil, tornTail != nil { return nil }
    return result
  }

  /// The size from which the records are split across cores: below it, a thread costs more
  /// than it saves.
  static let parallelThreshold = 4 << 20

  /// How a scan reads the records after the header.
  enum Strategy: Sendable {
    /// The fast scan, in parallel from ``parallelThreshold`` bytes, falling back to the
    /// sequential one.
    case automatic
    /// The fast scan split across cores from `bytes`, falling back to the sequential one.
    case parallel(from: Int)
    /// The sequential scanner only.
    case sequential
  }

  /// What the scan found.
  struct Result {
    /// The actions' lines. Their times and triggers are left in the lines, which have this
    /// library's layout: the envelope reader reads them when they are wanted.
    var actions = ActionIndex()
    var checkpoints: [Int: LineRange] = [:]
    var endSeq: Int?
    var endTime: Int64?
    var tornTail: (offset: Int, length: Int)?
    /// The site records, in order, each with the action before it (0: none).
    var sites: [(line: LineRange, after: Int)] = []
    /// The shared records, in order, each with the action it follows.
    var shared: [(seq: Int, line: LineRange)] = []
    /// Whether a record is out of place (a shared record that does not follow the last action):
    /// the sequential scanner says where.
    var isMisplaced = false

    /// The first chunk's index, which must start at the first action.
    init?(_ first: Chunk) {
      guard first.firstSeq == nil || first.firstSeq == 1, first.checkpointsBeforeActions == nil
      else { return nil }
      self.append(first, numberedFrom: 2)
      if let endSeq = first.endSeq {
        guard endSeq == first.lines.count else { return nil }
        self.endSeq = endSeq
        self.endTime = first.endTime
      }
    }

    /// Appends a chunk whose first record is record `record` of the file.
    mutating func append(_ chunk: Chunk, numberedFrom record: Int) {
      let actionsBefore = self.actions.count
      self.actions.append(
        segment: chunk.lines, base: chunk.start, numberedFrom: record + chunk.recordsBeforeActions
      )
      for position in chunk.recordsBetweenActions { self.actions.noteRecord(before: position) }
      for (line, after) in chunk.sites {
        var line = line
        line.record += record - 1
        // NB: A site before the chunk's first action follows the previous chunk's last.
        self.sites.append((line, after ?? actionsBefore))
      }
      for (seq, line) in chunk.checkpoints {
        var line = line
        line.record += record - 1
        self.checkpoints[seq] = line
      }
      for (line, seq, after) in chunk.shared {
        var line = line
        line.record += record - 1
        // NB: A shared record before the chunk's first action follows the previous chunk's last.
        if after == nil, seq != actionsBefore { self.isMisplaced = true }
        self.shared.append((seq, line))
      }
    }
  }

  /// One chunk's records, numbered from 1.
  struct Chunk {
    /// Where the chunk starts in the file: its places count from there.
    let start: Int
    var lines: [als_place] = []
    var checkpoints: [Int: LineRange] = [:]
    /// How many records precede the chunk's first action (all of them when it has none).
    var recordsBeforeActions = 0
    /// For each later record that is not an action, the position in the file of the action
    /// after it.
    var recordsBetweenActions: [Int] = []
    var firstSeq: Int?
    /// The lowest and highest checkpoint seqs met before the chunk's first action: they refer
    /// to actions of earlier chunks.
    var checkpointsBeforeActions: (lowest: Int, highest: Int)?
    var endSeq: Int?
    var endTime: Int64?
    var lineCount = 0
    /// The site records, each with the seq of the action before it in the chunk (`nil`: before
    /// the chunk's first action).
    var sites: [(line: LineRange, after: Int?)] = []
    /// The shared records, each with the action it says it follows and the seq of the action
    /// before it in the chunk (`nil`: before the chunk's first action).
    var shared: [(line: LineRange, seq: Int, after: Int?)] = []

    /// Scans the lines in `start..<end`, numbering records from 1; `nil` at anything
    /// but a healthy action, checkpoint or (last) end record.
    static func scan(
      _ base: UnsafePointer<UInt8>, from start: Int, to end: Int,
      isLast: Bool, maximumLineLength: Int
    ) -> Chunk? {
      var chunk = Chunk(start: start)
      var failed = false
      // The C scanner reads every line (checksums, envelopes, the actions' sequence) and writes
      // the actions' places straight into the index; the other lines come back here, a batch at
      // a time. At most one action per shortest action line: untouched capacity costs no memory.
      chunk.lines = [als_place](
        unsafeUninitializedCapacity: (end - start) / IndexRules.shortestActionLine + 1
      ) { actions, initialized in
        let batchSize = 256
        let others = UnsafeMutablePointer<als_other_line>.allocate(capacity: batchSize)
        defer { others.deallocate() }
        var sequence = als_sequence()
        sequence.next = -1
        var offset = start
        var record = 1
        while offset < end {
          let found = als_scan_lines(
            base, &offset, end, start, maximumLineLength, &record, &sequence,
            actions.baseAddress! + initialized, others, batchSize
          )
          initialized += found.actions
          guard found.stopped == 0, chunk.endSeq == nil || found.actions + found.others == 0,
            chunk.take(others, count: found.others, isLast: isLast, end: end)
          else {
            failed = true
            return
          }
          if initialized > 0, chunk.firstSeq == nil {
            chunk.firstSeq = Int(sequence.next) - initialized
          }
        }
        chunk.lineCount = record - 1
      }
      return failed ? nil : chunk
    }

    /// Takes the lines other than actions that a batch met; `false` at one the fast scan does
    /// not handle.
    private mutating func take(
      _ others: UnsafeMutablePointer<als_other_line>, count: Int, isLast: Bool, end: Int
    ) -> Bool {
      for index in 0..<count {
        let line = others[index]
        // Only the last line may end the recording.
        guard self.endSeq == nil else { return false }
        let seq = Int(line.seq)
        switch line.kind {
        case Int32(ALS_KIND_CHECKPOINT):
          if line.last_action_seq >= 0 {
            guard IndexRules.isPlacedCheckpoint(seq, after: Int(line.last_action_seq)) else {
              return false
            }
            // NB: Seqs count actions from 1 with no gap, checked as the chunks are joined.
            self.recordsBetweenActions.append(Int(line.last_action_seq))
          } else {
            self.recordsBeforeActions += 1
            let early = self.checkpointsBeforeActions ?? (seq, seq)
            self.checkpointsBeforeActions = (min(early.lowest, seq), max(early.highest, seq))
          }
          self.checkpoints[seq] = line.range
        case Int32(ALS_KIND_SITE):
          if line.last_action_seq >= 0 {
            self.recordsBetweenActions.append(Int(line.last_action_seq))
            self.sites.append((line.range, Int(line.last_action_seq)))
          } else {
            self.recordsBeforeActions += 1
            self.sites.append((line.range, nil))
          }
        case Int32(ALS_KIND_SHARED):
          if line.last_action_seq >= 0 {
            guard seq == Int(line.last_action_seq) else { return false }
            self.recordsBetweenActions.append(Int(line.last_action_seq))
            self.shared.append((line.range, seq, Int(line.last_action_seq)))
          } else {
            self.recordsBeforeActions += 1
            self.shared.append((line.range, seq, nil))
          }
        case Int32(ALS_KIND_END):
          guard isLast,
            line.range.offset + Framing.prefixLength + line.range.payloadLength + 1 == end
          else { return false }
          self.endSeq = seq
          self.endTime = line.end_time
        default:
          return false
        }
      }
      return true
    }
  }
}
