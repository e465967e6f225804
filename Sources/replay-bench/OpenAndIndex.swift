import ActionLog
import ArgumentParser
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  // Opening and indexing a log against reading the same file and counting its lines.

  static func openAndIndex(scratch: URL, actions: Int) throws {
    let url = scratch.appendingPathComponent("large.actionlog")
    print(
      "Opening a \(actions)-action log: Recording(contentsOf:) vs reading it and counting newlines"
    )
    let writeStart = ContinuousClock.now
    try self.writeTodosLog(url, actions: actions, sharedRecords: true)
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    print("  (wrote \(megabytes(size)) MB in \(format(ContinuousClock.now - writeStart)))")
    try self.compareOpen(url, actions: actions, rounds: 15)
  }

  /// Opens the log at `url` and reads it with a newline scan, in turns, and prints both medians.
  static func compareOpen(_ url: URL, actions: Int, rounds: Int) throws {
    var raw: [Duration] = []
    var open: [Duration] = []
    var lines = 0
    var count = 0
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? [false, true] : [true, false]
      for isOpen in order {
        let start = ContinuousClock.now
        if isOpen {
          let recording = try Recording(contentsOf: url)
          count = recording.count
          open.append(ContinuousClock.now - start)
        } else {
          lines = try self.countLines(url)
          raw.append(ContinuousClock.now - start)
        }
      }
    }
    guard count == actions, lines >= actions + 2 else {
      print("  error: read \(count) actions and \(lines) lines, expected \(actions) actions")
      throw ExitCode.failure
    }
    let baseline = median(raw)
    let measured = median(open)
    // Each round's two measurements are side by side: the spread of their ratios shows how much
    // the machine moved during the run.
    let ratios = zip(open, raw).map { $0 / $1 }
    self.row("read + newline scan", baseline, per: actions)
    self.row("open + index", measured, per: actions)
    self.ratio(
      median(ratios), goal: "≤ 1.1× the newline scan", met: median(ratios) <= 1.1,
      note: rangeOfRounds(ratios) + ", \(lines) lines: actions, sites, shared records"
    )
    print()
  }

  static func countLines(_ url: URL) throws -> Int {
    let data = try Data(contentsOf: url, options: .alwaysMapped)
    return data.withUnsafeBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return 0 }
      var lines = 0
      var offset = 0
      while offset < bytes.count,
        let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset)
      {
        lines += 1
        offset = base.distance(to: UnsafeRawPointer(newline)) + 1
      }
      return lines
    }
  }
}
