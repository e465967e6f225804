import ActionLogScan

/// An array kept as the arrays it was built from, end to end, each renumbered as it is read.
///
/// The parallel scan fills one array per chunk of the file, numbering each chunk's records from
/// one; joining them into one array, or renumbering them in place, would touch the whole index
/// again on one thread after the parallel part. Instead each segment keeps the number its
/// records are shifted by, and reading an element finds its segment among a handful and adds it.
struct SegmentedArray<Element: RecordNumbered & Sendable>: RandomAccessCollection, Sendable {
  private var segments: [[Element]] = []
  /// The number of elements up to the end of each segment.
  private var ends: [Int] = []
  /// How many records each segment's elements are renumbered by.
  private var shifts: [Int] = []

  init() {}

  var startIndex: Int { 0 }
  var endIndex: Int { self.ends.last ?? 0 }

  subscript(position: Int) -> Element {
    var segment = 0
    while position >= self.ends[segment] { segment += 1 }
    let element = self.segments[segment][position - (segment == 0 ? 0 : self.ends[segment - 1])]
    let shift = self.shifts[segment]
    return shift == 0 ? element : element.renumbered(by: shift)
  }

  /// Appends an element to the last segment.
  mutating func append(_ element: Element) {
    if self.segments.isEmpty {
      self.segments.append([])
      self.ends.append(0)
      self.shifts.append(0)
    }
    let shift = self.shifts[self.shifts.count - 1]
    self.segments[self.segments.count - 1].append(
      shift == 0 ? element : element.renumbered(by: -shift)
    )
    self.ends[self.ends.count - 1] += 1
  }

  /// Appends `segment` whole, without copying it; its elements read `shift` records higher.
  mutating func append(segment: [Element], renumberingBy shift: Int = 0) {
    guard !segment.isEmpty else { return }
    self.ends.append(self.count + segment.count)
    self.segments.append(segment)
    self.shifts.append(shift)
  }

  /// Makes room for `capacity` elements in the last segment.
  mutating func reserveCapacity(_ capacity: Int) {
    if self.segments.isEmpty {
      self.segments.append([])
      self.ends.append(0)
      self.shifts.append(0)
    }
    self.segments[self.segments.count - 1].reserveCapacity(capacity)
  }
}

extension SegmentedArray: Equatable where Element: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elementsEqual(rhs)
  }
}

/// A value that carries a record number, which a ``SegmentedArray`` segment can shift.
protocol RecordNumbered {
  /// The same value, its record number `offset` higher.
  func renumbered(by offset: Int) -> Self
}

extension LineRange: RecordNumbered {
  func renumbered(by offset: Int) -> Self {
    Self(record: self.record + offset, offset: self.offset, payloadLength: self.payloadLength)
  }
}
