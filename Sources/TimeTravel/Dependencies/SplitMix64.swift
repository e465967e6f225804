/// A small, fast, deterministic random number generator (SplitMix64).
///
/// Replay answers reads beyond the recorded random values with it, so such a replay stays
/// deterministic; use it to make a recorded session reproducible:
///
/// ```swift
/// $0.withRandomNumberGenerator = WithRandomNumberGenerator(SplitMix64(seed: 42))
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence depends only on `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  public mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var value = self.state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
