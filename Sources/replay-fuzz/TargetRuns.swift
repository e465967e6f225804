import ActionLog
import ArgumentParser
import ComposableArchitecture
import ReplayREPL
import ExampleFeatures
import Foundation
import Synchronization
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayFuzz {
  /// Fuzzes a rolling recorder's folder: each input is a seed folder edited at random, read by
  /// `replay info` and `replay report`, by `unfinishedSessions` and a bug report of each session,
  /// and written by a recorder starting in it. Files outside the folder (which symlinks in it
  /// point to) must not change.
  func fuzzFolders(
    _ harness: Harness, seed: UInt64, until end: ContinuousClock.Instant
  ) throws
    -> Int
  {
    let seeds = try Self.folderSeeds(self.folderSeeds)
    let work = harness.folder.appendingPathComponent("folder-target")
    let folder = work.appendingPathComponent("recordings")
    let output = work.appendingPathComponent("output")
    let outside = work.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let sentinel = outside.appendingPathComponent("counter-20990101T000000.000Z-0-000001.actionlog")
    let sentinelBytes = seeds.flatMap(\.files).first?.bytes ?? Array("sentinel".utf8)
    try Data(sentinelBytes).write(to: sentinel)
    try FileManager.default.createDirectory(
      at: outside.appendingPathComponent("folder"), withIntermediateDirectories: true)
    var mutator = FolderMutator(
      seeds: seeds, outside: [sentinel.path, outside.appendingPathComponent("folder").path],
      seed: seed)
    print(
      """
      Fuzzing rolling folders for \(format(self.seconds))s, seed \(seed), from \(seeds.count) \
      seed folders; a check hangs after \(format(self.hangLimit))s.
      """)
    let checks = [
      Harness.Check(name: ["info", folder.path]) {
        ReplayCommand.main(features: Harness.features, arguments: ["info", folder.path])
      },
      Harness.Check(name: ["report", folder.path, "--list"]) {
        ReplayCommand.main(
          features: Harness.features, arguments: ["report", folder.path, "--list"])
      },
      Harness.Check(name: ["report", folder.path, "-o", "REPORT", "--force"]) {
        ReplayCommand.main(
          features: Harness.features,
          arguments: [
            "report", folder.path, "-o", output.appendingPathComponent("cli.actionlog").path,
            "--force",
          ])
      },
      Harness.Check(name: ["(unfinishedSessions and a bug report of each)"]) {
        try FolderChecks.reports(folder, output: output)
      },
      Harness.Check(name: ["(a rolling recorder starting in the folder)"]) {
        try MainActor.assumeIsolated { try FolderChecks.recorder(folder) }
      },
    ]
    return try self.loop(harness, until: end, seed: seed, extension: "folder") {
      let (entries, edits) = mutator.next()
      try FolderMutator.materialize(entries, in: folder)
      try? FileManager.default.removeItem(at: output)
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      var findings = harness.run(checks)
      let kept = (try? Data(contentsOf: sentinel)).map(Array.init) ?? []
      let listing = (try? FileManager.default.contentsOfDirectory(atPath: outside.path)) ?? []
      if kept != sentinelBytes || Set(listing) != [sentinel.lastPathComponent, "folder"]
        || !((try? FileManager.default.contentsOfDirectory(
          atPath: outside.appendingPathComponent("folder").path))?.isEmpty ?? false)
      {
        findings.append(
          Harness.Finding(
            kind: .wrong("a file outside the folder changed: \(listing)"), command: ["(any)"]))
        try Data(sentinelBytes).write(to: sentinel)
      }
      return (
        findings, edits,
        { destination in
          try? FileManager.default.copyItem(at: folder, to: destination)
        }
      )
    }
  }

  /// Fuzzes the file behind `@Shared(.fileStorage(…))`: each input is a seed file edited at
  /// random, or something else in its place, read into a shared value that is then changed.
  func fuzzSharedFiles(
    _ harness: Harness, seed: UInt64, until end: ContinuousClock.Instant
  )
    throws -> Int
  {
    let seeds = try self.sharedFileSeeds.flatMap { path -> [(name: String, bytes: [UInt8])] in
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return try names.sorted().map {
        ($0, Array(try Data(contentsOf: URL(fileURLWithPath: path).appendingPathComponent($0))))
      }
    }
    guard !seeds.isEmpty else {
      throw ValidationError("No seed files in \(self.sharedFileSeeds.joined(separator: ", ")).")
    }
    let work = harness.folder.appendingPathComponent("shared-file-target")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let url = work.appendingPathComponent("settings.json")
    var mutator = SharedFileMutator(seeds: seeds, seed: seed)
    print(
      """
      Fuzzing shared files for \(format(self.seconds))s, seed \(seed), from \(seeds.count) seed \
      files; a check hangs after \(format(self.hangLimit))s.
      """)
    return try self.loop(harness, until: end, seed: seed, extension: "json") {
      let (input, edits) = mutator.next()
      // NB: A fresh folder each time: a save's leftovers from the last input are not this one's.
      try? FileManager.default.removeItem(at: work)
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      try SharedFileMutator.materialize(input, at: url)
      let saved: Data? = if case .bytes(let bytes) = input { Data(bytes) } else { nil }
      let findings = harness.run([
        Harness.Check(name: ["(@Shared(.fileStorage) reading and saving the file)"]) {
          try SharedFileChecks.check(url, original: input)
        }
      ])
      return (findings, edits, { destination in try? saved?.write(to: destination) })
    }
  }

  /// Runs inputs until `end`, saving each finding's input (by `save`) with its report; returns
  /// how many inputs had findings.
  private func loop(
    _ harness: Harness, until end: ContinuousClock.Instant, seed: UInt64, extension: String,
    _ next: () throws -> ([Harness.Finding], [String], (URL) -> Void)
  ) throws -> Int {
    let start = ContinuousClock.now
    var nextReport = start + .seconds(10)
    var found = 0
    while ContinuousClock.now < end {
      let (findings, edits, save) = try next()
      if !findings.isEmpty {
        found += 1
        let folder = URL(fileURLWithPath: self.findings)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = "\(self.target.rawValue)-seed\(seed)-input\(harness.tally.inputs)"
        save(folder.appendingPathComponent("\(name).\(`extension`)"))
        let report = (findings.map(\.description) + ["", "Edits:"] + edits.map { "  \($0)" })
          .joined(separator: "\n")
        try Data((report + "\n").utf8).write(to: folder.appendingPathComponent("\(name).txt"))
        print("FOUND: \(findings.map(\.description).joined(separator: "; ")): \(name)")
        fflush(nil)
      }
      if ContinuousClock.now >= nextReport {
        nextReport = ContinuousClock.now + .seconds(10)
        print(self.targetProgress(harness.tally, since: start, found: found))
        fflush(nil)
      }
    }
    print(self.targetProgress(harness.tally, since: start, found: found))
    return found
  }

  private func targetProgress(
    _ tally: Harness.Tally, since start: ContinuousClock.Instant, found: Int
  ) -> String {
    let elapsed = ContinuousClock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return """
      \(format(seconds))s: \(tally.inputs) inputs (\(format(Double(tally.inputs) / max(seconds, 0.001)))/s, \
      \(tally.runs) runs), \(found) crashing, hanging or handled wrongly
      """
  }

  /// The seed folders: each folder under `paths` that holds segments.
  static func folderSeeds(_ paths: [String]) throws -> [(name: String, files: [FolderMutator.File])]
  {
    var seeds: [(name: String, files: [FolderMutator.File])] = []
    for path in paths {
      let root = URL(fileURLWithPath: path)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      for name in names.sorted() {
        let folder = root.appendingPathComponent(name)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let segments = try files.sorted().compactMap { file -> FolderMutator.File? in
          guard file.hasSuffix(".actionlog") else { return nil }
          return FolderMutator.File(
            name: file, bytes: Array(try Data(contentsOf: folder.appendingPathComponent(file))))
        }
        if !segments.isEmpty { seeds.append((name, segments)) }
      }
    }
    guard !seeds.isEmpty else {
      throw ValidationError("No seed folders (of segments) in \(paths.joined(separator: ", ")).")
    }
    return seeds
  }

  /// Writes the committed seed folders: a finished session; an unfinished one beside an earlier
  /// finished one; and a session that stopped on a full disk and started again (a `gap`).
  @MainActor static func makeFolderCorpus(in root: URL) throws {
    func record(
      into folder: URL, session: String, actions: Int, closes: Bool,
      options: LogWriter.Options = LogWriter.Options()
    ) throws {
      let recorder = try RecorderOf<CounterFeature>(
        directory: folder, feature: "counter", initialState: CounterFeature.State(),
        retention: .bytes(40_000), session: session, segmentBytes: 2_500,
        checkpointInterval: 10, startedAt: Date(timeIntervalSince1970: 1_764_000_000),
        elapsed: { .zero }, options: options)
      let store = Store(initialState: CounterFeature.State()) {
        CounterFeature().recording(to: recorder)
      }
      for step in 1...actions {
        store.send(step.isMultiple(of: 4) ? .decrementButtonTapped : .incrementButtonTapped)
        if step.isMultiple(of: 5) { try? recorder.flush() }
      }
      if closes { try recorder.close() } else { try recorder.flush() }
    }
    try? FileManager.default.removeItem(at: root)
    try record(
      into: root.appendingPathComponent("finished"), session: "counter-a", actions: 120,
      closes: true)
    try record(
      into: root.appendingPathComponent("two-sessions"), session: "counter-a", actions: 60,
      closes: true)
    try record(
      into: root.appendingPathComponent("two-sessions"), session: "counter-b", actions: 90,
      closes: false)
    // A disk that is full for a while: writes 6 to 11 fail.
    try record(
      into: root.appendingPathComponent("gap"), session: "counter-g", actions: 150, closes: true,
      options: LogWriter.Options(fileSystem: FullForAWhile(), onStop: { _ in }))
  }
}

/// The machine's file system, with writes 6 to 11 failing as on a full disk.
final class FullForAWhile: LogFileSystem, @unchecked Sendable {
  private let base = POSIXFileSystem()
  private let writes = Atomic<Int>(0)

  func write(_ bytes: UnsafeRawBufferPointer, to file: Int32) throws(FileSystemError) {
    let call = self.writes.add(1, ordering: .relaxed).newValue
    if (6...11).contains(call) { throw FileSystemError(code: ENOSPC, operation: "write") }
    try self.base.write(bytes, to: file)
  }
  func create(_ path: String) throws(FileSystemError) -> Int32 { try self.base.create(path) }
  func sync(_ file: Int32) throws(FileSystemError) { try self.base.sync(file) }
  func close(_ file: Int32) throws(FileSystemError) { try self.base.close(file) }
  func createDirectory(_ path: String) throws(FileSystemError) {
    try self.base.createDirectory(path)
  }
  func syncDirectory(_ directory: String) throws(FileSystemError) {
    try self.base.syncDirectory(directory)
  }
  func link(_ existing: String, to new: String) throws(FileSystemError) {
    try self.base.link(existing, to: new)
  }
  func unlink(_ path: String) throws(FileSystemError) { try self.base.unlink(path) }
  func rename(_ old: String, to new: String) throws(FileSystemError) {
    try self.base.rename(old, to: new)
  }
  func list(_ directory: String) throws(FileSystemError) -> [String] {
    try self.base.list(directory)
  }
  func exists(_ path: String) -> Bool { self.base.exists(path) }
}
