import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import ReplayREPL
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// What `replay-fuzz --target` feeds hostile input to.
enum FuzzTarget: String, CaseIterable {
  /// Recordings, through the `replay` commands.
  case recording
  /// A rolling recorder's folder, through `replay info`/`report`, `unfinishedSessions` and a
  /// recorder starting in it.
  case folder
  /// The file behind `@Shared(.fileStorage(…))`, through a shared value reading and saving it.
  case sharedFile = "shared-file"
}

/// One check a child makes of what it was given: a wrong outcome, said in `message`, is a
/// finding as a crash is.
struct WrongOutcome: Error {
  let message: String
}

// MARK: - Folders

/// Makes hostile rolling-recording folders from good ones: segments missing in the middle,
/// duplicated, truncated, damaged, moved to another session, empty, or replaced by a directory;
/// foreign files, names that overflow, symlinks out of the folder.
struct FolderMutator {
  /// A file of a seed folder.
  struct File {
    var name: String
    var bytes: [UInt8]
  }

  /// What a folder entry is.
  enum Entry {
    case file(File)
    case directory(String)
    case symlink(String, to: String)
  }

  private(set) var random: SplitMix64
  let seeds: [(name: String, files: [File])]
  /// Files outside the folder that symlinks may point to; nothing may change them.
  let outside: [String]

  init(seeds: [(name: String, files: [File])], outside: [String], seed: UInt64) {
    self.seeds = seeds
    self.outside = outside
    self.random = SplitMix64(seed: seed)
  }

  private mutating func int(_ bound: Int) -> Int {
    bound <= 1 ? 0 : Int(self.random.next() % UInt64(bound))
  }

  /// One hostile folder, and what was done to it.
  mutating func next() -> (entries: [Entry], edits: [String]) {
    let seed = self.seeds[self.int(self.seeds.count)]
    var entries = seed.files.map(Entry.file)
    var edits = ["from \(seed.name)"]
    for _ in 0...self.int(4) {
      edits.append(self.mutate(&entries))
    }
    return (entries, edits)
  }

  private func segmentIndices(_ entries: [Entry]) -> [Int] {
    entries.indices.filter {
      if case .file(let file) = entries[$0], file.name.hasSuffix(".actionlog") {
        true
      } else {
        false
      }
    }
  }

  private mutating func mutate(_ entries: inout [Entry]) -> String {
    let segments = self.segmentIndices(entries)
    let pick = segments.isEmpty ? nil : segments[self.int(segments.count)]
    guard let pick, case .file(var file) = entries[pick] else {
      entries.append(.file(File(name: "lonely-000001.actionlog", bytes: [])))
      return "an empty segment"
    }
    let stem = String(file.name.dropLast(".actionlog".count))
    let session = stem.lastIndex(of: "-").map { String(stem[..<$0]) } ?? stem
    switch self.int(16) {
    case 0:
      entries.remove(at: pick)
      return "removed \(file.name)"
    case 1:
      let index = 1 + self.int(40)
      entries.append(
        .file(
          File(name: LogDirectory.segmentName(session: session, index: index), bytes: file.bytes)))
      return "copied \(file.name) as segment \(index)"
    case 2:
      let cut = self.int(file.bytes.count + 1)
      file.bytes = Array(file.bytes.prefix(cut))
      entries[pick] = .file(file)
      return "truncated \(file.name) at \(cut)"
    case 3:
      var flipped: [Int] = []
      for _ in 0...self.int(8) where !file.bytes.isEmpty {
        let at = self.int(file.bytes.count)
        file.bytes[at] ^= UInt8(1 + self.int(255))
        flipped.append(at)
      }
      entries[pick] = .file(file)
      return "damaged \(file.name) at \(flipped)"
    case 4:
      let other = self.seeds[self.int(self.seeds.count)].files
      guard
        let foreign = other.filter({ $0.name.hasSuffix(".actionlog") }).randomElement(
          using: &self.random)
      else {
        return "nothing"
      }
      entries.append(
        .file(
          File(
            name: LogDirectory.segmentName(session: session, index: 1 + self.int(40)),
            bytes: foreign.bytes)))
      return "a segment of another session (\(foreign.name)) in \(session)"
    case 5:
      entries[pick] = .file(File(name: file.name, bytes: []))
      return "emptied \(file.name)"
    case 6:
      entries[pick] = .directory(file.name)
      return "a directory in place of \(file.name)"
    case 7:
      let target = self.outside[self.int(self.outside.count)]
      let name =
        self.int(2) == 0
        ? file.name : LogDirectory.segmentName(session: session, index: 1 + self.int(40))
      if self.int(2) == 0 { entries.remove(at: pick) }
      entries.removeAll { if case .file(let f) = $0 { f.name == name } else { false } }
      entries.append(.symlink(name, to: target))
      return "\(name) a symlink to \(target)"
    case 8:
      let names = [
        "\(session)-99999999999999999999999999.actionlog",
        "\(session)-000000.actionlog",
        "-000001.actionlog",
        "\(String(repeating: "s", count: 230))-000001.actionlog",
        "\(session)--000001.actionlog",
        "\(session)-00000١.actionlog",
        "\(session)-000001.actionlog.tmp",
        ".\(file.name).1234.tmp",
        "\(session)-0000001.actionlog",
      ]
      let name = names[self.int(names.count)]
      entries.append(.file(File(name: name, bytes: file.bytes)))
      return "a segment named \(name)"
    case 9:
      var bytes = [UInt8](repeating: 0, count: self.int(4_096))
      for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: self.random.next()) }
      let name = self.int(2) == 0 ? "notes.txt" : "foreign-000001.actionlog"
      entries.append(.file(File(name: name, bytes: bytes)))
      return "a foreign file \(name)"
    case 10:
      entries.append(
        .symlink(
          LogDirectory.segmentName(session: session, index: 900 + self.int(9)),
          to: "loop-000001.actionlog"))
      entries.append(
        .symlink(
          "loop-000001.actionlog", to: LogDirectory.segmentName(session: session, index: 900)))
      return "a symlink loop"
    case 11:
      // The same segment twice over, as a copy that went wrong.
      file.bytes += file.bytes
      entries[pick] = .file(file)
      return "doubled \(file.name)"
    case 12:
      // A whole line cut out of the middle, checksums and all.
      let lines = file.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      guard lines.count > 2 else { return "nothing" }
      let drop = 1 + self.int(lines.count - 2)
      file.bytes = Array(
        lines.enumerated().filter { $0.offset != drop }.map(\.element).joined(separator: [
          UInt8(ascii: "\n")
        ]))
      entries[pick] = .file(file)
      return "cut line \(drop) of \(file.name)"
    default:
      // Swaps two segments' contents, as a restore from a backup that mixed them up.
      guard segments.count > 1 else { return "nothing" }
      let other = segments[self.int(segments.count)]
      guard case .file(var second) = entries[other], other != pick else { return "nothing" }
      swap(&file.bytes, &second.bytes)
      entries[pick] = .file(file)
      entries[other] = .file(second)
      return "swapped \(file.name) and \(second.name)"
    }
  }

  /// Writes `entries` into `folder`, emptied first.
  static func materialize(_ entries: [Entry], in folder: URL) throws {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for entry in entries {
      switch entry {
      case .file(let file):
        let path = folder.appendingPathComponent(file.name).path
        guard !FileManager.default.fileExists(atPath: path) else { continue }
        _ = FileManager.default.createFile(atPath: path, contents: Data(file.bytes))
      case .directory(let name):
        try? FileManager.default.createDirectory(
          at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
      case .symlink(let name, let target):
        _ = symlink(target, folder.appendingPathComponent(name).path)
      }
    }
  }
}

/// What each child does with a hostile folder. Each returns normally, or throws
/// ``WrongOutcome`` when the folder was handled wrongly (an error is fine; a lost action is not).
enum FolderChecks {
  /// `unfinishedSessions` and a bug report of each, written to `output`: a session whose
  /// segments all open whole joins, and its report holds at least the newest segment's actions.
  static func reports(_ folder: URL, output: URL) throws {
    let sessions = (try? RecordedSession.all(in: folder)) ?? []
    _ = try? RecorderOf<CounterFeature>.unfinishedSessions(in: folder)
    for (number, session) in sessions.enumerated() {
      let segments = session.segments.map { try? Recording(contentsOf: $0) }
      let report = output.appendingPathComponent("report-\(number).actionlog")
      let written = try? session.bugReport(to: report, last: nil)
      guard segments.allSatisfy({ $0.map { $0.ending.problem == nil } ?? false }),
        let newest = segments.last ?? nil, newest.count > 0,
        newest.header.feature == "counter"
      else { continue }
      guard written != nil, let recording = try? Recording(contentsOf: report) else {
        throw WrongOutcome(
          message: "session \(session.name): every segment opens whole, but no report was made")
      }
      if recording.count < newest.count {
        throw WrongOutcome(
          message: """
            session \(session.name): the report holds \(recording.count) actions, the newest \
            segment alone \(newest.count)
            """)
      }
    }
  }

  /// A rolling recorder starting in the folder, recording 400 actions and closing: it starts
  /// (or says why not), and what it recorded reads back.
  @MainActor static func recorder(_ folder: URL) throws {
    let recorder: RecorderOf<CounterFeature>
    do {
      recorder = try RecorderOf<CounterFeature>(
        directory: folder, feature: "counter", initialState: CounterFeature.State(),
        retention: .bytes(24_000), session: "fuzz-start", segmentBytes: 3_000,
        checkpointInterval: 20)
    } catch {
      return
    }
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    for _ in 1...400 { store.send(.incrementButtonTapped) }
    try? recorder.close()
    guard
      let session = try RecordedSession.all(in: folder).first(where: { $0.name == "fuzz-start" })
    else {
      throw WrongOutcome(message: "the recorder's own session is not in the folder")
    }
    let joined = try session.joined()
    if joined.firstAction + joined.count - 1 != 400 {
      throw WrongOutcome(
        message:
          "the recorder's session ends at action \(joined.firstAction + joined.count - 1), not 400")
    }
  }
}

extension RecordingEnding {
  fileprivate var problem: RecordProblem? {
    if case .damaged(let problem) = self { problem } else { nil }
  }
}

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
