extension Duration {
  /// The duration in whole nanoseconds, as a recording holds times, clamped to `Int64`: a time a
  /// file claims may be anything.
  @_spi(Internals) public var nanoseconds: Int64 {
    let (seconds, attoseconds) = self.components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    if sumOverflow { return seconds < 0 ? .min : .max }
    return sum
  }

  /// The duration as the tools show times, in seconds with whole milliseconds: `48.650s`, or
  /// `-0.005s` before the start.
  @_spi(Internals) public var secondsText: String {
    let nanoseconds = self.nanoseconds
    let milliseconds = nanoseconds.magnitude / 1_000_000
    let fraction = String(milliseconds % 1_000)
    let padding = String(repeating: "0", count: 3 - fraction.count)
    return "\(nanoseconds < 0 ? "-" : "")\(milliseconds / 1_000).\(padding)\(fraction)s"
  }
}
