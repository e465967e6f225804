import CRC32C
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scan of a healthy recording, split across the processor's cores.
///
/// The records after the header are cut into one chunk per core at line boundaries; each chunk
/// checks its lines' checksums and reads their envelopes on a thread of its own, and the chunks'
/// indexes are joined in order. It handles what a recorder writes when nothing went wrong:
/// actions, checkpoints, an end record last, and a torn last line. Anything else (a damaged line,
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
      var lastNewline = total - 1
      while lastNewline >= start, base[lastNewline] != UInt8(ascii: "\n") { lastNewline -= 1 }
      end = lastNewline + 1
      tornTail = (end, total - end)
      // Longer than a record may be: the sequential scanner reports it as too long.
      guard total - end <= maximumLineLength + Framing.prefixLength else { return nil }
    }

    // Chunk boundaries, each just after a newline.
    let cores = min(max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), 8)
    let chunkCount = end - start >= threshold ? cores : 1
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

      func callAsFunction(_ index: Int) {
        self.results[index] = Chunk.scan(
          self.base, from: self.boundaries[index], to: self.boundaries[index + 1],
          firstRecord: index == 0 ? 2 : 1,
          // NB: The first chunk's arrays become the whole index: room for every chunk's lines.
          expectedBytes: index == 0 ? self.boundaries.last! - self.boundaries[0] : nil,
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

    // Join the chunks: each must go on where the one before stopped. The first chunk's index
    // becomes the whole one, so only the others are copied.
    guard let first = results[0], var result = Result(first) else { return nil }
    result.tornTail = tornTail
    var record = 1 + first.lineCount
    for index in 1..<max(chunks, 1) {
      guard var chunk = results[index] else { return nil }
      let lastSeq = result.lines.count
      if let first = chunk.firstSeq, first != lastSeq + 1 { return nil }
      if let early = chunk.checkpointsBeforeActions, early.lowest < 1 || early.highest > lastSeq {
        return nil
      }
      if result.endTime != nil, chunk.lineCount > 0 { return nil }
      for position in chunk.lines.indices { chunk.lines[position].record += record }
      for key in chunk.checkpoints.keys { chunk.checkpoints[key]!.record += record }
      result.lines.append(contentsOf: chunk.lines)
      result.times.append(contentsOf: chunk.times)
      result.triggers.append(contentsOf: chunk.triggers)
      result.checkpoints.merge(chunk.checkpoints) { $1 }
      if let endSeq = chunk.endSeq {
        guard endSeq == result.lines.count else { return nil }
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
    var lines: [LineRange]
    var times: [Int64]
    var triggers: [Int32]
    var checkpoints: [Int: LineRange]
    var endTime: Int64?
    var tornTail: (offset: Int, length: Int)?

    /// The first chunk's index, which must start at the first action.
    init?(_ first: Chunk) {
      guard first.firstSeq == nil || first.firstSeq == 1, first.checkpointsBeforeActions == nil
      else { return nil }
      self.lines = first.lines
      self.times = first.times
      self.triggers = first.triggers
      self.checkpoints = first.checkpoints
      if let endSeq = first.endSeq {
        guard endSeq == first.lines.count else { return nil }
        self.endTime = first.endTime
      }
    }
  }

  /// One chunk's records: the first chunk's numbered as in the file, the others' from 1.
  struct Chunk {
    var lines: [LineRange] = []
    var times: [Int64] = []
    var triggers: [Int32] = []
    var checkpoints: [Int: LineRange] = [:]
    var firstSeq: Int?
    /// The lowest and highest checkpoint seqs met before the chunk's first action: they refer
    /// to actions of earlier chunks.
    var checkpointsBeforeActions: (lowest: Int, highest: Int)?
    var endSeq: Int?
    var endTime: Int64?
    var lineCount = 0

    /// Scans the lines in `start..<end`, numbering records from `firstRecord`; `nil` at anything
    /// but a healthy action, checkpoint or (last) end record.
    static func scan(
      _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, firstRecord: Int,
      expectedBytes: Int? = nil, isLast: Bool, maximumLineLength: Int
    ) -> Chunk? {
      var chunk = Chunk()
      let estimate = (expectedBytes ?? (end - start)) / 64
      chunk.lines.reserveCapacity(estimate)
      chunk.times.reserveCapacity(estimate)
      chunk.triggers.reserveCapacity(estimate)
      var offset = start
      var lastSeq: Int?
      while offset < end {
        let window = min(end - offset, maximumLineLength + Framing.prefixLength + 1)
        guard let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), window) else {
          return nil
        }
        let lineEnd = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
        let lineStart = offset
        offset = lineEnd + 1
        chunk.lineCount += 1
        guard chunk.endSeq == nil else { return nil }  // only the last line may end it

        let length = lineEnd - lineStart
        guard length > Framing.prefixLength, let written = Framing.parsePrefix(base + lineStart) else {
          return nil
        }
        let payload = base + lineStart + Framing.prefixLength
        let payloadLength = length - Framing.prefixLength
        guard crc32c_extend(0, payload, payloadLength) == written else { return nil }
        guard let envelope = Envelope(payload, count: payloadLength) else { return nil }
        let range = LineRange(
          record: firstRecord - 1 + chunk.lineCount, offset: lineStart,
          payloadLength: payloadLength
        )
        let seq = Int(envelope.seq)
        switch envelope.kind {
        case .action:
          guard seq == (lastSeq.map { $0 + 1 } ?? seq) else { return nil }
          if chunk.firstSeq == nil { chunk.firstSeq = seq }
          lastSeq = seq
          chunk.lines.append(range)
          chunk.times.append(envelope.time ?? 0)
          chunk.triggers.append(Int32(clamping: envelope.trigger ?? 0))
        case .checkpoint:
          if let lastSeq {
            guard seq >= 1, seq <= lastSeq else { return nil }
          } else {
            let early = chunk.checkpointsBeforeActions ?? (seq, seq)
            chunk.checkpointsBeforeActions = (min(early.lowest, seq), max(early.highest, seq))
          }
          chunk.checkpoints[seq] = range
        case .end:
          guard isLast, offset == end else { return nil }
          chunk.endSeq = seq
          chunk.endTime = envelope.time
        case .note:
          return nil
        }
      }
      return chunk
    }
  }


  /// A record's envelope read from the start of its payload as this library writes it
  /// (`{"kind":"action","seq":12,"source":"effect","time":3400,"trigger":11,…`), comparing bytes
  /// and allocating nothing; `nil` when the payload does not start that way.
  struct Envelope {
    enum Kind { case action, checkpoint, note, end }

    var kind: Kind
    var seq: Int64
    /// An action's or the end's time.
    var time: Int64?
    /// An effect action's trigger.
    var trigger: Int64?

    @inline(__always)
    init?(_ payload: UnsafePointer<UInt8>, count: Int) {
      var cursor = payload
      let end = payload + count
      guard consume(#"{"kind":""#, at: &cursor, before: end) else { return nil }
      // NB: Most common first.
      if consume(#"action","seq":"#, at: &cursor, before: end) {
        self.kind = .action
      } else if consume(#"checkpoint","seq":"#, at: &cursor, before: end) {
        self.kind = .checkpoint
      } else if consume(#"note","seq":"#, at: &cursor, before: end) {
        self.kind = .note
      } else if consume(#"end","seq":"#, at: &cursor, before: end) {
        self.kind = .end
      } else {
        return nil
      }
      guard let seq = integer(at: &cursor, before: end) else { return nil }
      self.seq = seq
      switch self.kind {
      case .action:
        guard consume(#","source":"send","time":"#, at: &cursor, before: end)
            || consume(#","source":"effect","time":"#, at: &cursor, before: end),
          let time = integer(at: &cursor, before: end)
        else { return nil }
        self.time = time
        if consume(#","trigger":"#, at: &cursor, before: end) {
          guard let trigger = integer(at: &cursor, before: end) else { return nil }
          self.trigger = trigger
        }
      case .end:
        guard consume(#","time":"#, at: &cursor, before: end),
          let time = integer(at: &cursor, before: end)
        else { return nil }
        self.time = time
      case .checkpoint, .note:
        break
      }
    }
  }

  @inline(__always)
  static func consume(
    _ literal: StaticString, at cursor: inout UnsafePointer<UInt8>, before end: UnsafePointer<UInt8>
  ) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard end - cursor >= count, memcmp(cursor, literal.utf8Start, count) == 0 else { return false }
    cursor += count
    return true
  }

  /// A non-negative integer of at most 18 digits, followed by `,` or `}`.
  @inline(__always)
  static func integer(
    at cursor: inout UnsafePointer<UInt8>, before end: UnsafePointer<UInt8>
  ) -> Int64? {
    var value: Int64 = 0
    var digits = 0
    // Eight bytes at a time while they are all there: count the leading digits, then combine
    // them with three multiplications.
    while end - cursor >= 8, digits < 16 {
      let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
      let count = leadingDigits(word)
      if count > 0 {
        value = value &* power10[count] &+ Int64(eightDigits(word << UInt64(64 - 8 * count)))
        digits += count
        cursor += count
      }
      if count < 8 { break }
    }
    while cursor < end, digits < 18 {
      let digit = cursor.pointee &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int64(digit)
      digits += 1
      cursor += 1
    }
    guard digits > 0, digits <= 18, cursor < end,
      cursor.pointee == UInt8(ascii: ",") || cursor.pointee == UInt8(ascii: "}")
    else { return nil }
    return value
  }

  static let power10: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

  /// How many of the eight bytes, first byte in the low bits, are ASCII digits before the first
  /// that is not.
  @inline(__always)
  static func leadingDigits(_ word: UInt64) -> Int {
    let highNibbleWrong = (word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
    let lowNibbleOver9 = ((word & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
    let notDigit = highNibbleWrong | lowNibbleOver9
    return notDigit.trailingZeroBitCount / 8
  }

  /// Eight ASCII digits, first byte in the low bits and most significant (leading zero bytes
  /// count as zeros), as a number.
  @inline(__always)
  static func eightDigits(_ word: UInt64) -> UInt64 {
    var value = word & 0x0F0F_0F0F_0F0F_0F0F
    value = (value &* 2561) >> 8
    value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
  }
}

