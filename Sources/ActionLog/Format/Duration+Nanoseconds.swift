extension Duration {
  /// The duration in whole nanoseconds, as a recording holds times.
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = self.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}
