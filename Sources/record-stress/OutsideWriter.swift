import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension RecordStress {
  /// Plays another program that saves a file now and then: for each line `VALUE AT` on standard
  /// input it waits until the monotonic clock reads `AT` (nanoseconds), saves `VALUE` to the file
  /// as editors do (a new file renamed into place), and prints `wrote VALUE START END`, the
  /// clock's readings just before and just after the rename. The monotonic clock is the
  /// machine's, so another process compares these readings with its own.
  ///
  ///     $ record-stress --outside-writer FILE.json
  static func outsideWriter(_ url: URL) -> Never {
    let folder = url.deletingLastPathComponent().path
    let temporary = "\(folder)/.outside-writer.\(getpid()).tmp"
    while let line = readLine() {
      let fields = line.split(separator: " ")
      guard fields.count == 2, let at = Int64(fields[1]) else {
        FileHandle.standardError.write(Data("record-stress: expected VALUE AT, got \(line)\n".utf8))
        exit(2)
      }
      let value = Data(fields[0].utf8)
      do {
        try value.write(to: URL(fileURLWithPath: temporary))
      } catch {
        FileHandle.standardError.write(Data("record-stress: \(error)\n".utf8))
        exit(1)
      }
      while monotonicNanoseconds() < at {}
      let start = monotonicNanoseconds()
      guard rename(temporary, url.path) == 0 else {
        FileHandle.standardError.write(Data("record-stress: rename failed: \(errno)\n".utf8))
        exit(1)
      }
      let end = monotonicNanoseconds()
      FileHandle.standardOutput.write(Data("wrote \(fields[0]) \(start) \(end)\n".utf8))
    }
    exit(0)
  }
}

/// The machine's monotonic clock, in nanoseconds: the same for every process.
func monotonicNanoseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}
