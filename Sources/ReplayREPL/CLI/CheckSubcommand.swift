import ActionLog
import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ReplayCommand {
  /// `replay check PATH…`: every recording in folders and files, each verified in a child
  /// process (several at once with `--jobs`), with a verdict per file; `--shard K/N` checks one
  /// part of them, `--junit FILE` writes the verdicts as a JUnit XML report.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Verify every recording in folders, each in a child process, with a verdict each.",
      discussion: """
        Looks for .actionlog files in each folder (and its subfolders) and re-runs each one as \
        "replay verify" does, in a child process of its own: a recording whose replay crashes, \
        hangs or cannot be read gets a verdict, and the check goes on to the next one. --jobs \
        child processes run at once (one per core by default); the verdicts are printed in the \
        order of the paths whatever order they finish in.

        On CI, --shard K/N checks part K of N: a recording's part follows from a hash of its \
        path relative to the folder given, so N machines, each given its K, check every \
        recording once, and adding a recording moves no other. --junit FILE writes a JUnit XML \
        report (a test case per recording, with the step and the diff of a failure) that CI \
        systems show.

        A verdict is one of: pass; differs (today's reducer does not reproduce a checkpoint); \
        crashed (at a step); timed out; unreadable (damaged, or not a recording); needs a \
        migration (the feature's types changed since; the migration step is written); cannot \
        replay (a feature this replay lacks, or a newer version).

        Exits with 0 when every recording passes, 1 when one does not, 2 when there is nothing \
        to check, and 130 when interrupted with Ctrl-C (the verdicts so far are shown).

        Examples:
          $ replay check Recordings
          $ replay check Recordings/bug-reports attachment.actionlog --timeout 30
          $ replay check Recordings --json > verdicts.json
          $ replay check Recordings --jobs 4 --shard 2/3 --junit replay-check.xml
        """
    )

    @Argument(
      help: "Folders to search for recordings, and recordings.",
      completion: .file(extensions: ["actionlog"]))
    var paths: [String]

    @Option(help: "Seconds a recording may take before its verdict is that it hangs (0: no limit).")
    var timeout: Double = 300

    @Flag(help: "Print the verdicts as one JSON document instead of text.")
    var json = false

    @Option(
      help: ArgumentHelp(
        "How many recordings to verify at once, each in a child process (default: one per core).",
        valueName: "n"))
    var jobs: Int?

    /// The child processes run at once: `--jobs`, or one per core.
    var jobCount: Int { self.jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    @Option(
      help: ArgumentHelp(
        "Check only part K of N parts of the recordings (2/4: the second of four).",
        discussion: "A recording's part is a hash of its path relative to the folder given.",
        valueName: "K/N"))
    var shard: String?

    /// The part `--shard` names.
    var part: RecordingShard? { self.shard.flatMap { try? RecordingShard(parsing: $0) } }

    @Option(
      help: ArgumentHelp(
        "Also write the verdicts to FILE as a JUnit XML report, for CI.", valueName: "file"),
      completion: .file(extensions: ["xml"]))
    var junit: String?

    func validate() throws {
      guard self.jobCount >= 1 else {
        throw ValidationError("--jobs takes a number of child processes from 1.")
      }
      if let shard = self.shard {
        do {
          _ = try RecordingShard(parsing: shard)
        } catch {
          throw ValidationError("--shard: \(error)")
        }
      }
      guard !self.paths.isEmpty else {
        throw ValidationError("Give at least one folder or recording to check.")
      }
      guard self.timeout >= 0, self.timeout.isFinite else {
        throw ValidationError("--timeout takes a number of seconds from 0 (no limit).")
      }
    }

    func run() throws {
      try self.reportingFailures {
        let files = try Self.recordings(in: self.paths)
        guard !files.isEmpty else {
          throw CommandFailure(
            """
            no recordings (.actionlog files) in \(self.paths.joined(separator: ", ")): there \
            is nothing to check.
            """,
            code: 2
          )
        }
        let checked = self.part.map { shard in files.filter { shard.contains($0.relative) } }
        if let shard = self.part, checked?.isEmpty == true {
          // NB: Not a failure: a small corpus split between many machines leaves some none.
          print(
            "Part \(shard) holds none of the \(counted(files.count, "recording")): nothing to check."
          )
          if let junit = self.junit {
            try JUnitReport(verdicts: [], unchecked: [], seconds: 0).write(to: junit)
          }
          return
        }
        try self.check(checked ?? files)
      }
    }

    private func check(_ files: [File]) throws {
      Interruption.install()
      let style = Style.forStandardOutput()
      let progress = isatty(STDERR_FILENO) != 0 && !self.json
      let clock = ContinuousClock()
      let start = clock.now
      let verdicts = try CheckPool(jobs: self.jobCount, count: files.count).run(
        check: { try self.check(files[$0]) },
        progress: { done, running in
          guard progress else { return }
          let now =
            running.first.map {
              ": \(files[$0].shown)" + (running.count > 1 ? " and \(running.count - 1) more" : "")
            } ?? ""
          FileHandle.standardError.write(
            Data("\rChecked \(done) of \(files.count)\(now)…\u{1B}[K".utf8))
        },
        report: { verdict in
          if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
          if !self.json {
            print(verdict.text(style: style))
            // Each verdict as it comes, also through a pipe (`replay check … | tee`).
            fflush(nil)
          }
        })
      if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      let interrupted = Interruption.isRequested
      let failed = verdicts.filter { $0.kind != .pass }.count
      if let junit = self.junit {
        let done = Set(verdicts.map(\.file.path))
        try JUnitReport(
          verdicts: verdicts, unchecked: files.filter { !done.contains($0.path) },
          seconds: (clock.now - start).seconds
        ).write(to: junit)
      }
      if self.json {
        print(Self.document(verdicts, of: files.count, interrupted: interrupted, shard: self.part))
      } else {
        print(Self.summary(verdicts, of: files.count, failed: failed, shard: self.part))
      }
      if interrupted { throw ExitCode(Interruption.exitStatus) }
      if failed > 0 { throw ExitCode(1) }
    }

    /// A recording to check: its path, the path to show (from the folder it was found in), and
    /// its path from that folder, which its shard is found by.
    struct File: Equatable {
      let path: String
      let shown: String
      let relative: String
    }

    /// The recordings `paths` name: files as given, and the `.actionlog` files under folders,
    /// in the order of their paths.
    static func recordings(in paths: [String]) throws -> [File] {
      var files: [File] = []
      let manager = FileManager.default
      for path in paths {
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
          throw CommandFailure("\(path) does not exist.", code: 2)
        }
        guard isFolder.boolValue else {
          files.append(File(path: path, shown: path, relative: path))
          continue
        }
        guard let found = try? RecordingFolder.relativePaths(in: URL(fileURLWithPath: path)) else {
          throw CommandFailure("\(path) cannot be read.", code: 2)
        }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        files += found.map { File(path: prefix + $0, shown: prefix + $0, relative: $0) }
      }
      return files
    }

    /// Verifies one recording in a child process.
    private func check(_ file: File) throws -> Verdict {
      let clock = ContinuousClock()
      let start = clock.now
      var verdict = try self.verdict(file)
      verdict.seconds = (clock.now - start).seconds
      return verdict
    }

    private func verdict(_ file: File) throws -> Verdict {
      let child = try IsolatedVerification.run(
        file: file.path, skipDamaged: false, capturing: true,
        timeout: self.timeout > 0 ? .milliseconds(Int64(self.timeout * 1_000)) : nil
      )
      let name = URL(fileURLWithPath: file.path).lastPathComponent
      let absolute = URL(fileURLWithPath: file.path).path
      /// The child's words, without its `replay: ` or `NAME: ` at the start, and with the
      /// file named as the list names it.
      func said(_ text: String) -> String {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
          .replacingOccurrences(of: absolute, with: file.shown)
        for prefix in ["replay: ", "\(name): "] where text.hasPrefix(prefix) {
          text.removeFirst(prefix.count)
        }
        return text
      }
      switch child.outcome {
      case .exited(0):
        return Verdict(file: file, kind: .pass, step: nil, message: said(child.output))
      case .exited(2):
        return Verdict(file: file, kind: .cannotReplay, step: nil, message: said(child.errors))
      case .exited(ReplayCommand.damagedStatus):
        return Verdict(file: file, kind: .unreadable, step: nil, message: said(child.output))
      case .exited(ReplayCommand.needsMigrationStatus):
        return Verdict(
          file: file, kind: .needsMigration, step: nil, message: said(child.errors))
      case .exited:
        let diverged = !child.output.isEmpty
        return Verdict(
          file: file, kind: diverged ? .differs : .unreadable, step: nil,
          message: said(diverged ? child.output : child.errors)
        )
      case .crashed(let signal, let step):
        let recording = try? Recording(contentsOf: URL(fileURLWithPath: file.path))
        let verdict = IsolatedVerification.crashVerdict(
          name: name, recording: recording, step: step, signal: signal)
        return Verdict(file: file, kind: .crashed, step: step, message: said(verdict))
      case .timedOut(let step):
        let limit = self.timeout.formatted(.number.precision(.fractionLength(0...3)))
        return Verdict(
          file: file, kind: .timedOut, step: step,
          message: """
            no verdict within \(limit)s; it was replaying step \(step). A reducer that loops on a \
            value the recording holds, or a recording longer than the limit: give --timeout.
            """
        )
      case .interrupted(let step):
        return Verdict(file: file, kind: .interrupted, step: step, message: "")
      }
    }

    /// The line after the verdicts.
    static func summary(
      _ verdicts: [Verdict], of total: Int, failed: Int, shard: RecordingShard? = nil
    ) -> String {
      let passed = verdicts.count - failed
      let part = shard.map { " (part \($0))" } ?? ""
      let checked =
        verdicts.count == total
        ? "Checked \(counted(total, "recording"))\(part)"
        : "Interrupted after \(verdicts.count) of \(counted(total, "recording"))\(part)"
      return "\(checked): \(passed) \(passed == 1 ? "passes" : "pass"), \(failed) "
        + "\(failed == 1 ? "fails" : "fail")."
    }

    /// The verdicts as a JSON document.
    static func document(
      _ verdicts: [Verdict], of total: Int, interrupted: Bool, shard: RecordingShard? = nil
    ) -> String {
      let recordings: [[String: Any]] = verdicts.map { verdict in
        var entry: [String: Any] = [
          "file": verdict.file.shown, "verdict": verdict.kind.rawValue,
          "message": verdict.message,
        ]
        if let step = verdict.step { entry["step"] = step }
        entry["seconds"] = (verdict.seconds * 1_000).rounded() / 1_000
        return entry
      }
      var document: [String: Any] = [
        "recordings": recordings,
        "total": total,
        "passed": verdicts.filter { $0.kind == .pass }.count,
        "failed": verdicts.filter { $0.kind != .pass }.count,
        "interrupted": interrupted,
      ]
      if let shard { document["shard"] = shard.description }
      let data = try? JSONSerialization.data(
        withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      )
      return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
  }
}

/// What `replay check` found of one recording.
struct Verdict {
  enum Kind: String {
    case pass
    /// Today's reducer does not reproduce a checkpoint.
    case differs
    /// The reducer crashed while replaying it.
    case crashed
    /// No verdict within the time allowed.
    case timedOut = "timed-out"
    /// The file is not a recording that can be read.
    case unreadable
    /// This `replay` does not have the recording's feature, or the recording is newer.
    case cannotReplay = "cannot-replay"
    /// The feature's types changed since it was made: it needs a migration (the message says
    /// which step).
    case needsMigration = "needs-migration"
    /// Ctrl-C stopped it.
    case interrupted
  }

  let file: ReplayCommand.Check.File
  let kind: Kind
  let step: Int?
  let message: String
  /// How long the check took.
  var seconds: Double = 0

  /// `pass  counter.actionlog: …`, with the message's further lines indented.
  func text(style: Style) -> String {
    let word =
      switch self.kind {
      case .pass: style.pass("pass")
      default: style.error("FAIL")
      }
    let what =
      switch self.kind {
      case .pass, .differs, .crashed, .unreadable: ""
      case .timedOut: "timed out: "
      case .cannotReplay: "cannot replay: "
      case .needsMigration: "needs a migration: "
      case .interrupted: "interrupted"
      }
    let lines = self.message.split(separator: "\n", omittingEmptySubsequences: false)
    let first = lines.first.map(String.init) ?? ""
    let rest = lines.dropFirst().map { $0.isEmpty ? "" : "      " + $0 }
    return (["\(word)  \(self.file.shown): \(what)\(first)"] + rest).joined(separator: "\n")
  }
}
