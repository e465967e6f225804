import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension FuzzTarget: ExpressibleByArgument {}

/// `replay-fuzz`: hostile recordings through the real `replay` commands, until a time is up.
@main
struct ReplayFuzz: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay-fuzz",
    abstract: "Feed replay hostile recordings until the time is up; report crashes and hangs.",
    discussion: """
      Each input is a seed recording edited at random (numbers at their limits, values of the \
      wrong type, records dropped, repeated, reordered or of another kind, deep nesting, long \
      redaction paths), framed with fresh checksums, and now and then damaged byte by byte. It \
      goes through info, verify --integrity, verify, verify --skip-damaged, list, export and a \
      REPL script, each in a child process. A child that dies of a signal outside an example \
      reducer, or takes longer than --hang-limit, is a finding: its input is saved in \
      FINDINGS, and the exit status is 1. A command that outlives the limit is first run again, \
      alone, twice: when it then finishes in time, the host stalled or the hang depends on \
      timing, and it is a note (with its threads' stacks, when gdb is installed), not a finding.

      The same seed gives the same inputs. `replay-fuzz --check FILE…` runs files through the \
      commands without editing them: the saved findings, as regression tests.

      With --target folder, each input is instead a rolling recorder's folder edited at \
      random (segments missing, duplicated, truncated, damaged, from another session; foreign \
      files, names that overflow, symlinks out of the folder), read by replay info and report, \
      unfinishedSessions and a bug report of each session, and written by a recorder starting \
      in it; a file outside the folder that changes is a finding. With --target shared-file, \
      it is the file behind @Shared(.fileStorage): empty, truncated, another type's JSON, 100 \
      MB, invalid UTF-8, a directory or FIFO in its place; the app must get the default value \
      and one issue naming the file, and its next change must replace the file.

      Examples:
        $ replay-fuzz --seconds 60
        $ replay-fuzz --target folder --seconds 60
        $ replay-fuzz --target shared-file --seconds 60
        $ replay-fuzz --seconds 1800 --seed 42
        $ replay-fuzz --check Tests/Fuzz/crashers
      """
  )

  @Option(help: "How long to run, in seconds.")
  var seconds: Double = 60

  @Option(
    help: """
      What to fuzz: recording (through the replay commands), folder (a rolling recorder's \
      folder), shared-file (the file behind @Shared(.fileStorage)).
      """)
  var target: FuzzTarget = .recording

  @Option(
    parsing: .upToNextOption,
    help: "Folders of seed folders (each a rolling recorder's), for --target folder.")
  var folderSeeds: [String] = ["Tests/Fuzz/folder-corpus"]

  @Option(
    parsing: .upToNextOption, help: "Folders of seed files, for --target shared-file.")
  var sharedFileSeeds: [String] = ["Tests/Fuzz/shared-file-corpus"]

  @Option(help: "Write the seed folders of --target folder into this folder, and stop.")
  var makeFolderCorpus: String?

  @Option(help: "The seed of the edits (default: a random one, printed).")
  var seed: UInt64?

  @Option(
    parsing: .upToNextOption,
    help: "Folders of seed recordings (.actionlog, searched recursively).")
  var seeds: [String] = ["Recordings", "Tests/Fuzz/corpus", "Tests/Fuzz/crashers"]

  @Option(help: "Where inputs that crash or hang replay are saved.")
  var findings = "Tests/Fuzz/findings"

  @Option(help: "Seconds a command may take on one input before it counts as a hang.")
  var hangLimit: Double = 5

  @Option(
    parsing: .upToNextOption,
    help: "Run these files or folders through the commands as they are, and stop.")
  var check: [String] = []

  func run() throws {
    // NB: Children must die quietly and at once, and the runtime's backtracer takes seconds per
    // crash. It reads its setting when a process starts, so the fuzzer starts again with it.
    if ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] != "enable=no" {
      setenv("SWIFT_BACKTRACE", "enable=no", 1)
      let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
      execv("/proc/self/exe", arguments)
    }
    let harness = try Harness(hangLimit: .milliseconds(Int64(self.hangLimit * 1_000)))
    if let corpus = self.makeFolderCorpus {
      try MainActor.assumeIsolated {
        try Self.makeFolderCorpus(in: URL(fileURLWithPath: corpus))
      }
      print("Wrote the seed folders in \(corpus).")
      return
    }
    if self.target != .recording {
      let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
      let end = ContinuousClock.now + .milliseconds(Int64(self.seconds * 1_000))
      let found =
        self.target == .folder
        ? try self.fuzzFolders(harness, seed: seed, until: end)
        : try self.fuzzSharedFiles(harness, seed: seed, until: end)
      if found > 0 { throw ExitCode(1) }
      return
    }
    if !self.check.isEmpty { return try self.checkFiles(harness) }

    let seedFiles = try recordings(in: self.seeds)
    guard !seedFiles.isEmpty else {
      throw ValidationError("No seed recordings in \(self.seeds.joined(separator: ", ")).")
    }
    let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
    var mutator = Mutator(
      seeds: try seedFiles.map {
        Mutator.seed(named: $0.lastPathComponent, bytes: try Data(contentsOf: $0))
      },
      seed: seed
    )
    print(
      """
      Fuzzing replay for \(format(self.seconds))s, seed \(seed), from \(seedFiles.count) seed \
      recordings; a command hangs after \(format(self.hangLimit))s.
      """
    )
    let clock = ContinuousClock()
    let start = clock.now
    let end = start + .milliseconds(Int64(self.seconds * 1_000))
    var nextReport = start + .seconds(10)
    var found = 0
    while clock.now < end {
      let (bytes, edits) = mutator.next()
      let findings = try harness.run(bytes)
      self.show(harness.takeStalls(), input: harness.tally.inputs)
      if !findings.isEmpty {
        found += 1
        try self.save(
          bytes, edits: edits, findings: findings, seed: seed, input: harness.tally.inputs)
      }
      if clock.now >= nextReport {
        nextReport = clock.now + .seconds(10)
        print(self.progress(harness.tally, since: start, found: found))
        fflush(nil)
      }
    }
    print(self.progress(harness.tally, since: start, found: found))
    if found > 0 { throw ExitCode(1) }
  }

  private func progress(
    _ tally: Harness.Tally, since start: ContinuousClock.Instant, found: Int
  )
    -> String
  {
    let elapsed =
      Double((ContinuousClock.now - start).components.seconds)
      + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
    let rate = Double(tally.inputs) / max(elapsed, 0.001)
    return """
      \(format(elapsed))s: \(tally.inputs) inputs (\(format(rate))/s, \(tally.runs) runs), \
      \(found) crashing or hanging, \(tally.reducerTraps) example-reducer traps, \
      \(tally.reducerHangs) example-reducer hangs
      """
  }

  private func save(
    _ bytes: Data, edits: [String], findings: [Harness.Finding], seed: UInt64, input: Int
  ) throws {
    let folder = URL(fileURLWithPath: self.findings)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let name = "seed\(seed)-input\(input)"
    let file = folder.appendingPathComponent("\(name).actionlog")
    try bytes.write(to: file)
    let stacks = findings.compactMap { finding in
      finding.stacks.map { "Threads of `replay \(finding.command.joined(separator: " "))`:\n\($0)" }
    }
    let report = (findings.map(\.description) + ["", "Edits:"] + edits.map { "  \($0)" } + stacks)
      .joined(separator: "\n")
    try Data((report + "\n").utf8).write(to: folder.appendingPathComponent("\(name).txt"))
    print("FOUND: \(findings.map(\.description).joined(separator: "; ")): \(file.path)")
    for stack in stacks { print(stack) }
    fflush(nil)
  }

  /// Says which commands outlived the hang limit once only, with their threads' stacks.
  private func show(_ stalls: [Harness.Stall], input: Int) {
    for stall in stalls {
      print("note: input \(input): \(stall)")
      if let stacks = stall.stacks { print(stacks) }
    }
    fflush(nil)
  }

  private func checkFiles(_ harness: Harness) throws {
    let files = try recordings(in: self.check)
    var failed = 0
    for file in files {
      let findings = try harness.run(try Data(contentsOf: file))
      for stall in harness.takeStalls() { print("note: \(file.path): \(stall)") }
      for finding in findings {
        print("\(file.path): \(finding)")
      }
      if !findings.isEmpty { failed += 1 }
    }
    print(
      """
      Checked \(files.count) files through \(harness.tally.runs) runs: \(failed) crashing or \
      hanging, \(harness.tally.reducerTraps) example-reducer traps.
      """
    )
    if failed > 0 { throw ExitCode(1) }
  }
}

/// The `.actionlog` files in `paths` (files as given, folders searched), sorted by path.
func recordings(in paths: [String]) throws -> [URL] {
  var files: [URL] = []
  for path in paths {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
    let url = URL(fileURLWithPath: path)
    guard isFolder.boolValue else {
      files.append(url)
      continue
    }
    let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
    files += (walk?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "actionlog" }
  }
  return files.sorted { $0.path < $1.path }
}

func format(_ value: Double) -> String {
  value.formatted(.number.precision(.fractionLength(0...1)).grouping(.never))
}
