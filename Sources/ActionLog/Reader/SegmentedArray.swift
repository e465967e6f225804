/// An array kept as the arrays it was built from, end to end.
///
/// The parallel scan fills one array per chunk of the file; joining them into one array would
/// touch the whole index again on one thread after the parallel part. Instead reading an element
/// finds its segment among a handful. Each segment carries a number of its own (the index keeps
/// its elements' offsets from it).
struct SegmentedArray<Element: Sendable>: RandomAccessCollection, Sendable {
  private var segments: [[Element]] = []
  /// The number of elements up to the end of each segment.
  private var ends: [Int] = []
  /// Each segment's own number.
  private var bases: [Int] = []

  init() {}

  var startIndex: Int { 0 }
  var endIndex: Int { self.ends.last ?? 0 }

  subscript(position: Int) -> Element {
    self.element(at: position).element
  }

  /// The element at `position` and its segment's number.
  func element(at position: Int) -> (element: Element, base: Int) {
    var segment = 0
    while position >= self.ends[segment] { segment += 1 }
    let element = self.segments[segment][position - (segment == 0 ? 0 : self.ends[segment - 1])]
    return (element, self.bases[segment])
  }

  /// The last segment's number, if there is a segment.
  var lastBase: Int? { self.bases.last }

  /// Appends an element to the last segment.
  mutating func append(_ element: Element) {
    if self.segments.isEmpty { self.startSegment(base: 0) }
    self.segments[self.segments.count - 1].append(element)
    self.ends[self.ends.count - 1] += 1
  }

  /// Starts an empty segment, numbered `base`, for the elements appended after it.
  mutating func startSegment(base: Int) {
    self.segments.append([])
    self.ends.append(self.count)
    self.bases.append(base)
  }

  /// Appends `segment` whole, without copying it, numbered `base`.
  mutating func append(segment: [Element], base: Int) {
    guard !segment.isEmpty else { return }
    self.ends.append(self.count + segment.count)
    self.segments.append(segment)
    self.bases.append(base)
  }

  /// Makes room for `capacity` elements in the last segment.
  mutating func reserveCapacity(_ capacity: Int) {
    if self.segments.isEmpty { self.startSegment(base: 0) }
    self.segments[self.segments.count - 1].reserveCapacity(capacity)
  }
}

extension SegmentedArray: Equatable where Element: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elementsEqual(rhs)
  }
}
