/// An array kept as the arrays it was built from, end to end.
///
/// The parallel scan fills one array per chunk of the file; joining them into one array would
/// touch the whole index again on one thread after the parallel part. Instead reading an element
/// finds its segment among a handful.
struct SegmentedArray<Element: Sendable>: RandomAccessCollection, Sendable {
  private var segments: [[Element]] = []
  /// The number of elements up to the end of each segment.
  private var ends: [Int] = []

  init() {}

  var startIndex: Int { 0 }
  var endIndex: Int { self.ends.last ?? 0 }

  subscript(position: Int) -> Element {
    var segment = 0
    while position >= self.ends[segment] { segment += 1 }
    return self.segments[segment][position - (segment == 0 ? 0 : self.ends[segment - 1])]
  }

  /// Appends an element to the last segment.
  mutating func append(_ element: Element) {
    if self.segments.isEmpty {
      self.segments.append([])
      self.ends.append(0)
    }
    self.segments[self.segments.count - 1].append(element)
    self.ends[self.ends.count - 1] += 1
  }

  /// Appends `segment` whole, without copying it.
  mutating func append(segment: [Element]) {
    guard !segment.isEmpty else { return }
    self.ends.append(self.count + segment.count)
    self.segments.append(segment)
  }

  /// Makes room for `capacity` elements in the last segment.
  mutating func reserveCapacity(_ capacity: Int) {
    if self.segments.isEmpty {
      self.segments.append([])
      self.ends.append(0)
    }
    self.segments[self.segments.count - 1].reserveCapacity(capacity)
  }
}

extension SegmentedArray: Equatable where Element: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elementsEqual(rhs)
  }
}
