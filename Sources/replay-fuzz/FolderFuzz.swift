import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import ReplayREPL
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

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
