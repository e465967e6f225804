import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import ReplayREPL
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Shared files

/// What the shared-file target stores.
struct FuzzPayload: Codable, Equatable, Sendable {
  var count: Int
  var text: String
  var tags: [String]

  static let initial = FuzzPayload(count: 7, text: "default", tags: [])
}

/// Makes hostile files for a shared value: empty, truncated, another type's JSON, invalid UTF-8,
/// deeply nested, very large, damaged bytes, and a directory, FIFO, device or dangling symlink in
/// the file's place.
struct SharedFileMutator {
  enum Input {
    case bytes([UInt8])
    case large(Int)
    case directory
    case fifo
    case symlink(String)
    case missing
  }

  private(set) var random: SplitMix64
  let seeds: [(name: String, bytes: [UInt8])]

  init(seeds: [(name: String, bytes: [UInt8])], seed: UInt64) {
    self.seeds = seeds
    self.random = SplitMix64(seed: seed)
  }

  private mutating func int(_ bound: Int) -> Int {
    bound <= 1 ? 0 : Int(self.random.next() % UInt64(bound))
  }

  mutating func next() -> (input: Input, edits: [String]) {
    let seed = self.seeds[self.int(self.seeds.count)]
    var bytes = seed.bytes
    switch self.int(14) {
    case 0: return (.bytes([]), ["empty"])
    case 1:
      let cut = self.int(bytes.count + 1)
      return (.bytes(Array(bytes.prefix(cut))), ["\(seed.name) truncated at \(cut)"])
    case 2:
      let others = [
        #"{"name": 3}"#, "[1, 2, 3]", #""text""#, "null", "true", #"{"count": "7"}"#,
        #"{"count": 1e400, "text": "", "tags": []}"#,
        #"{"count": 9223372036854775808, "text": "", "tags": []}"#,
        #"{"count": 1, "text": "\ud800", "tags": []}"#,
        #"{"count": 1, "text": "x", "tags": [null]}"#,
      ]
      let other = others[self.int(others.count)]
      return (.bytes(Array(other.utf8)), ["another type's JSON: \(other)"])
    case 3:
      let invalid: [[UInt8]] = [[0xFF, 0xFE], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80]]
      let at = self.int(bytes.count + 1)
      bytes.insert(contentsOf: invalid[self.int(invalid.count)], at: at)
      return (.bytes(bytes), ["invalid UTF-8 at \(at) of \(seed.name)"])
    case 4:
      let depth = [100, 600, 5_000, 100_000][self.int(4)]
      return (
        .bytes(
          Array(repeating: UInt8(ascii: "["), count: depth)
            + Array(repeating: UInt8(ascii: "]"), count: depth)),
        ["\(depth) nested arrays"]
      )
    case 5:
      // NB: Rare: each one is written whole.
      guard self.int(6) == 0 else { return (.bytes(bytes), ["\(seed.name) as it is"]) }
      return (.large(100 << 20), ["100 MB"])
    case 6: return (.directory, ["a directory in its place"])
    case 7: return (.fifo, ["a FIFO in its place"])
    case 8:
      let targets = ["/dev/zero", "/dev/null", "missing-target.json", "/proc/self/mem", "."]
      let target = targets[self.int(targets.count)]
      return (.symlink(target), ["a symlink to \(target)"])
    case 9: return (.missing, ["no file"])
    case 10:
      var flipped: [Int] = []
      for _ in 0...self.int(6) where !bytes.isEmpty {
        let at = self.int(bytes.count)
        bytes[at] ^= UInt8(1 + self.int(255))
        flipped.append(at)
      }
      return (.bytes(bytes), ["\(seed.name) damaged at \(flipped)"])
    case 11:
      return (.bytes(bytes + bytes), ["\(seed.name) twice"])
    case 12:
      return (.bytes([0xEF, 0xBB, 0xBF] + bytes), ["\(seed.name) after a byte-order mark"])
    default:
      return (.bytes(bytes), ["\(seed.name) as it is"])
    }
  }

  /// Puts `input` at `url`, replacing whatever is there.
  static func materialize(_ input: Input, at url: URL) throws {
    try? FileManager.default.removeItem(at: url)
    switch input {
    case .bytes(let bytes):
      try Data(bytes).write(to: url)
    case .large(let count):
      // A valid document's start, then spaces: read whole before it fails to decode.
      let file = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      guard file >= 0 else { throw WrongOutcome(message: "cannot create \(url.path)") }
      defer { close(file) }
      let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
      _ = "{\"count\": 1, ".withCString { write(file, $0, strlen($0)) }
      for _ in 0..<(count >> 20) {
        _ = chunk.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
      }
    case .directory:
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    case .fifo:
      _ = mkfifo(url.path, 0o644)
    case .symlink(let target):
      _ = symlink(target, url.path)
    case .missing:
      break
    }
  }
}

/// What a child does with a hostile shared file: reads it into a shared value, changes the
/// value, and saves it.
enum SharedFileChecks {
  /// Collects the runtime issues reported while it is installed.
  final class Collector: IssueReporter, @unchecked Sendable {
    let lock = NSLock()
    var messages: [String] = []

    func reportIssue(
      _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
      line: UInt, column: UInt
    ) {
      let text = message() ?? ""
      self.lock.withLock { self.messages.append(text) }
    }

    func expectIssue(
      _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
      line: UInt, column: UInt
    ) {}
  }

  /// The app gets the file's value when it holds one, else the default with one issue naming
  /// the file (none when there is no file); its next change replaces the file whole, or is
  /// reported (naming the file) when something not a file stands in the way.
  static func check(_ url: URL, original: SharedFileMutator.Input) throws {
    let collector = Collector()
    try withIssueReporters([collector]) {
      let expected: FuzzPayload? =
        if case .bytes(let bytes) = original {
          try? JSONDecoder().decode(FuzzPayload.self, from: Data(bytes))
        } else {
          nil
        }
      @Shared(.fileStorage(url)) var value = FuzzPayload.initial
      let read = value
      let issues = collector.lock.withLock { collector.messages }
      if let expected {
        guard read == expected, issues.isEmpty else {
          throw WrongOutcome(message: "read \(read) and issues \(issues) from a valid file")
        }
      } else {
        guard read == .initial else {
          throw WrongOutcome(message: "read \(read), not the default, from an invalid file")
        }
        let isMissing: Bool =
          if case .missing = original { true } else if case .symlink(let target) = original {
            target == "missing-target.json"
          } else { false }
        if isMissing {
          guard issues.isEmpty else {
            throw WrongOutcome(message: "issues for a missing file: \(issues)")
          }
        } else {
          guard issues.count == 1, issues[0].contains(url.path) else {
            throw WrongOutcome(message: "expected one issue naming the file, got \(issues)")
          }
        }
      }
      let changed = FuzzPayload(count: read.count &+ 1, text: "changed", tags: ["a"])
      $value.withLock { $0 = changed }
      FileStorage.fileSystem.flush()
      let after = collector.lock.withLock { collector.messages }.dropFirst(issues.count)
      if let data = try? Data(contentsOf: url),
        let saved = try? JSONDecoder().decode(FuzzPayload.self, from: data)
      {
        guard saved == changed else {
          throw WrongOutcome(message: "the file holds \(saved) after the change to \(changed)")
        }
      } else {
        guard !after.isEmpty, after.allSatisfy({ $0.contains(url.path) }) else {
          throw WrongOutcome(
            message: "the change was neither saved nor reported: \(Array(after))")
        }
      }
    }
  }
}
