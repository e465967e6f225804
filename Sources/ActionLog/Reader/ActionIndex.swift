import ActionLogScan
import Foundation

/// Where a record's line and payload are in the file.
extension LineRange {
  /// A stand-in for an action the recorder could not record.
  static func unrecorded(record: Int, offset: Int) -> Self {
    Self(record: record, offset: offset, payloadLength: -1)
  }

  /// Where the payload starts: after the checksum and its space.
  var payloadStart: Int { self.offset + Framing.prefixLength }

  var length: Int { self.payloadLength }
}

/// The index of a recording's actions, by sequence number minus one.
///
/// Four bytes per action (see `als_place`): a line's offset from its segment's start, less than
/// 2 GiB away. A line's record number follows from where the records between actions are, and
/// its payload's length is measured from the line.
struct ActionIndex: Sendable {
  /// Each action's line, in segments numbered by the offset their places count from.
  var places = SegmentedArray<als_place>()
  /// Where the difference between an action's record number and its position changes: from
  /// `shiftPositions[i]` on it is `shifts[i]` more than 2 (the header, and numbering from 1).
  private(set) var shiftPositions: [Int] = []
  private(set) var shifts: [Int] = []
  /// Each action's time and trigger, as the sequential scanner read them. Empty when the fast
  /// scan built the index: every action line then has this library's layout, checked during
  /// the scan, and the envelope reader reads them from the line when they are wanted.
  var times: [Int64] = []
  var triggers: [Int32] = []
  /// How far a place may be from its segment's start.
  let segmentLimit: Int

  init(segmentLimit: Int = Int(ALS_SEGMENT_LIMIT)) {
    self.segmentLimit = segmentLimit
  }

  var count: Int { self.places.count }

  /// Appends the action at `line`.
  mutating func append(_ line: LineRange) {
    self.number(from: self.count, as: line.record)
    if self.places.lastBase.map({ line.offset - $0 >= self.segmentLimit }) ?? true {
      self.places.startSegment(base: line.offset)
    }
    let place = als_place(line.offset - self.places.lastBase!)
    self.places.append(line.payloadLength < 0 ? place | ALS_PLACE_UNRECORDED : place)
  }

  /// Appends the places of actions numbered from `record`, offsets from `base`.
  mutating func append(segment: [als_place], base: Int, numberedFrom record: Int) {
    self.number(from: self.count, as: record)
    self.places.append(segment: segment, base: base)
  }

  /// Notes a record between actions, before the action at `position` (at or after the last
  /// one appended).
  mutating func noteRecord(before position: Int) {
    self.number(from: position, as: self.record(at: position) + 1)
  }

  /// The record number of the action at `position`.
  func record(at position: Int) -> Int {
    // The last shift that starts at or before `position`.
    var low = 0
    var high = self.shiftPositions.count
    while low < high {
      let middle = (low + high) / 2
      if self.shiftPositions[middle] <= position { low = middle + 1 } else { high = middle }
    }
    return position + 2 + (low == 0 ? 0 : self.shifts[low - 1])
  }

  /// Where the line of the action at `position` starts, or `nil` for an action the recorder
  /// could not record.
  func offset(at position: Int) -> Int? {
    let (place, base) = self.places.element(at: position)
    return place & ALS_PLACE_UNRECORDED == 0 ? base + Int(place) : nil
  }

  /// The line of the action at `position` in `bytes`, the recording's.
  func line(at position: Int, in bytes: UnsafeRawBufferPointer) -> LineRange {
    let (place, base) = self.places.element(at: position)
    let offset = base + Int(place & ~ALS_PLACE_UNRECORDED)
    var length = -1
    if place & ALS_PLACE_UNRECORDED == 0, let start = bytes.baseAddress {
      // NB: Every indexed action's line ends with a newline.
      let payload = offset + Framing.prefixLength
      let newline = memchr(start + payload, Int32(UInt8(ascii: "\n")), bytes.count - payload)
      length =
        newline.map { start.distance(to: UnsafeRawPointer($0)) - payload } ?? bytes.count - payload
    }
    return LineRange(record: self.record(at: position), offset: offset, payloadLength: length)
  }

  /// Numbers the actions from `position` on from `record`.
  private mutating func number(from position: Int, as record: Int) {
    let shift = record - position - 2
    guard shift != (self.shifts.last ?? 0) else { return }
    if self.shiftPositions.last == position {
      self.shifts[self.shifts.count - 1] = shift
    } else {
      self.shiftPositions.append(position)
      self.shifts.append(shift)
    }
  }
}
