import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which step a long replay is on, on standard error when it is a terminal: `Replaying step
/// 120000 of 1000000…`, at most a hundred times.
final class ReplayProgress {
  private let count: Int
  private let every: Int
  private var shown = false

  /// `nil` when standard error is not a terminal or the recording is short.
  init?(count: Int) {
    guard isatty(STDERR_FILENO) != 0, count >= 50_000 else { return nil }
    self.count = count
    self.every = max(1, count / 100)
  }

  func show(_ step: Int) {
    guard step % self.every == 0 else { return }
    self.shown = true
    FileHandle.standardError.write(Data("\rReplaying step \(step) of \(self.count)…".utf8))
  }

  /// Removes the progress line.
  func clear() {
    guard self.shown else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
