@_spi(Internals) import ActionLog
import ArgumentParser
import Foundation
import ReplayViewer
import TimeTravel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ReplayCommand {
  /// `replay export FILE -o OUT`: a recording as a self-contained bug-report attachment.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a recording as an attachment for a bug report.",
      discussion: """
        Writes a new recording with facts about the app in its header (--app-version, --os, \
        --description), more values redacted (--redact-state, --redact-action: paths as \
        todos[*].title, user.email or **.password; the values become ‹redacted N›), and \
        optionally only its last actions (--last, --max-size). What was damaged or torn in the \
        original is left out. The new file is checked the way "replay verify --integrity" \
        checks one, and the original is never changed.

        A cut keeps the last actions and starts the new recording from the state before them: \
        replayed from the nearest checkpoint when this replay has the feature, otherwise the \
        recorded checkpoint at or before the cut (so a few more actions are kept).

        Examples:
          $ replay export app.actionlog -o bug.actionlog --description "It jumps"
          $ replay export app.actionlog -o bug.actionlog --redact-state user.email
          $ replay export app.actionlog -o bug.actionlog --last 500
          $ replay export app.actionlog -o bug.actionlog --max-size 5MB
          $ replay export app.actionlog -o states.jsonl --states
          $ replay export app.actionlog -o detail.actionlog --scope 'path[id: 0].detail'
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(name: [.short, .customLong("output")], help: "The attachment to write (.actionlog).")
    var output: String

    @Option(help: "What went wrong, in the reporter's words.")
    var description: String?

    @Option(help: "The app's version.")
    var appVersion: String?

    @Option(
      help:
        """
        The operating system the recording was made on (default: this one's, unless the \
        recording says).
        """
    )
    var os: String?

    @Option(help: "Another state path to redact (repeatable).")
    var redactState: [String] = []

    @Option(help: "Another action path to redact (repeatable).")
    var redactAction: [String] = []

    @Option(help: "Keep only the last N actions.")
    var last: Int?

    @Option(
      help: "Keep only as many of the last actions as fit in SIZE bytes (suffixes K, KB, MB, GB).")
    var maxSize: String?

    @Flag(
      help: """
        Write the state after every step instead of a recording, as JSON Lines: \
        {"state":…,"step":N,"time":NANOSECONDS} from step 0 (the initial state), as the \
        recording holds them (redacted as it is), for tools that do not read action logs. Needs \
        a recording with step updates.
        """)
    var states = false

    @Option(
      help: ArgumentHelp(
        """
        Write one child feature's own recording instead: PATH is where its state is, as the \
        REPL writes state paths and TCA writes scopes (syncUpsList, destination.addItem, \
        path[id: 3].detail, todos[id: …]). It starts from the child's state where it first \
        exists, holds the actions that reached it, and the writes the rest of the app made to \
        its state as inputs; it replays with the child's reducer alone. A child that comes and \
        goes (a sheet, a pushed screen) gives its first presentation unless --presentation or \
        --from says another.
        """, valueName: "PATH"))
    var scope: String?

    @Option(help: "With --scope: start from the child's state after this app step.")
    var from: Int?

    @Option(help: "With --scope: which presentation of the child, from 1 (default: 1).")
    var presentation: Int?

    @Option(
      help:
        "With --scope: the child's feature name (default: a registered feature of its state type, else from the type: contactDetail)."
    )
    var feature: String?

    @Option(
      help:
        "With --scope: the child's state type, when this replay cannot re-run the app to find it (Module.ContactDetail.State)."
    )
    var stateType: String?

    @Option(
      help:
        "With --scope: the child's action type, when it is not the Action beside its State."
    )
    var actionType: String?

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    @Flag(
      help: """
        Write the attachment's HTML page beside it too (OUT with .html), to read in any \
        browser (see replay html).
        """)
    var html = false

    func run() throws {
      try self.reportingFailures {
        let redactions: Redactions
        do {
          redactions = try Redactions(state: self.redactState, actions: self.redactAction)
        } catch {
          throw CommandFailure("\(error)", code: 2)
        }
        if let last = self.last, last < 0 {
          throw CommandFailure("--last takes a number of actions, 0 or more: not \(last).", code: 2)
        }
        let limit = try self.maxSize.map(Self.parseSize)
        let recording = try self.recording.open()
        let source = URL(fileURLWithPath: self.recording.file).standardizedFileURL
        let destination = URL(fileURLWithPath: self.output).standardizedFileURL
        guard source != destination else {
          throw CommandFailure(
            "-o names the recording itself: write the attachment elsewhere.", code: 2)
        }
        let manager = FileManager.default
        if manager.fileExists(atPath: destination.path) {
          guard self.force else {
            throw CommandFailure("\(destination.path) exists: give --force to replace it.", code: 2)
          }
        }
        for note in notes(on: recording) {
          FileHandle.standardError.write(Data("\(note)\n".utf8))
        }
        if self.states, self.scope == nil {
          try self.writeStates(of: recording, to: destination)
          return
        }
        if let scope = self.scope {
          try self.writeScope(scope, of: recording, to: destination)
          return
        }
        let scoped = [
          ("--from", self.from != nil), ("--presentation", self.presentation != nil),
          ("--feature", self.feature != nil), ("--state-type", self.stateType != nil),
          ("--action-type", self.actionType != nil),
        ].filter(\.1).map(\.0)
        guard scoped.isEmpty else {
          throw CommandFailure(
            "\(scoped.joined(separator: ", ")) go with --scope PATH, which this export has not.",
            code: 2)
        }

        let metadata = self.metadata(of: recording)
        let exportCut = try ExportCut(
          recording, keepingLast: self.last, fittingIn: limit,
          session: { openSession(recording, ReplayCommand.catalog) }
        )
        let cut = exportCut.cut
        let cutNote = Self.note(on: exportCut, feature: recording.header.feature)

        let temporary = destination.deletingLastPathComponent()
          .appendingPathComponent(".\(destination.lastPathComponent).export")
        try? manager.removeItem(at: temporary)
        let summary: ExportSummary
        do {
          summary = try recording.export(
            to: temporary,
            options: ExportOptions(metadata: metadata, redactions: redactions, cut: cut)
          )
        } catch let error as ActionLogError {
          throw CommandFailure(error.description)
        }
        try moveIntoPlace(temporary, destination)

        if let cutNote { FileHandle.standardError.write(Data("\(cutNote)\n".utf8)) }
        var lines = self.summaryLines(
          summary, of: recording, limit: limit, askedRedactions: !redactions.isEmpty)
        if self.html { lines.append(try self.writePage(beside: destination)) }
        print(lines.joined(separator: "\n"))
        let unmatched =
          summary.unmatched.state.map { "state path \($0)" }
          + summary.unmatched.actions.map { "action path \($0)" }
        for path in unmatched {
          FileHandle.standardError.write(
            Data(
              """
              warning: the \(path) matched no value: check its spelling \
              (cut -c10- \(self.output) | jq).

              """.utf8)
          )
        }
      }
    }

    /// The metadata the attachment adds: a description, the app's version, the system.
    private func metadata(of recording: Recording) -> [String: String] {
      var metadata: [String: String] = [:]
      if let description = self.description { metadata["description"] = description }
      if let appVersion = self.appVersion { metadata["appVersion"] = appVersion }
      if let os = self.os {
        metadata["os"] = os
      } else if recording.header.metadata["os"] == nil {
        metadata["os"] = ProcessInfo.processInfo.operatingSystemVersionString
      }
      return metadata
    }

    /// What to say when the cut is not where it was asked for.
    private static func note(on exportCut: ExportCut, feature: String) -> String? {
      switch exportCut.shortfall {
      case nil:
        nil
      case let .noCheckpoint(wanted):
        """
        note: every action is kept: there is no recorded checkpoint before step \
        \(wanted + 1), and this replay cannot re-run "\(feature)" to start there.
        """
      case let .nearestCheckpoint(checkpoint, wanted):
        """
        note: the cut is at the checkpoint after step \(checkpoint), the nearest before step \
        \(wanted): this replay cannot re-run "\(feature)" to start exactly there.
        """
      }
    }

    /// What the export wrote, a line a fact.
    private func summaryLines(
      _ summary: ExportSummary, of recording: Recording, limit: Int?, askedRedactions: Bool
    ) -> [String] {
      var lines = [
        "Wrote \(self.output): \(summary.actions) actions"
          + (summary.cutActions == 0
            ? ""
            : summary.actions == 0
              ? " (from the state after step \(recording.count), the last of \(recording.count))"
              : " (steps \(summary.cutActions + 1)–\(recording.count) of \(recording.count))"),
        "  size       \(summary.bytes) bytes"
          + (limit.map {
            summary.bytes > $0
              ? " (over the \($0)-byte limit: the header and the state it starts from take more)"
              : ""
          } ?? ""),
      ]
      let facts = summary.header.metadata.sorted { $0.key < $1.key }.map {
        "\($0.key)=\($0.value)"
      }
      if !facts.isEmpty { lines.append("  metadata   \(facts.joined(separator: ", "))") }
      if let redacted = redactionSummary(summary.header.redactions) {
        lines.append("  redacted   \(redacted)")
      }
      if askedRedactions {
        lines.append("  this time  \(summary.redactedValues) values redacted")
      }
      lines.append(
        "  integrity  \(summary.records) records, every checksum and the header checked; "
          + "\(summary.ending)"
      )
      return lines
    }

    /// Writes the attachment's page beside it (`--html`); returns the line that says so.
    private func writePage(beside destination: URL) throws -> String {
      let page = destination.deletingPathExtension().appendingPathExtension("html")
      do {
        let written = try Recording(contentsOf: destination)
        let made = try HTMLReport.write(
          written, to: page,
          options: HTMLReport.Options(fileName: destination.lastPathComponent))
        return "  page       \(page.lastPathComponent), \(made.bytes) bytes"
      } catch let error as ActionLogError {
        throw CommandFailure(error.description)
      } catch let error as HTMLReport.WriteFailure {
        throw CommandFailure(error.description)
      }
    }

    /// `5MB` → 5,000,000; `512K` → 512,000; `1000` → 1,000.
    static func parseSize(_ text: String) throws -> Int {
      let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
      let units: [(String, Int)] = [
        ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("G", 1_000_000_000),
        ("M", 1_000_000), ("K", 1_000), ("B", 1),
      ]
      for (suffix, scale) in units where upper.hasSuffix(suffix) {
        if let number = Double(upper.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)),
          number > 0
        {
          return Int(number * Double(scale))
        }
      }
      if let number = Int(upper), number > 0 { return number }
      throw CommandFailure(
        "--max-size takes a size such as 5MB, 512K or 100000: not \"\(text)\".", code: 2)
    }
  }
}

extension ReplayCommand.Export {
  /// `--states`: every step's state as JSON Lines, through a temporary file.
  func writeStates(of recording: Recording, to destination: URL) throws {
    let refused = [
      ("--redact-state", !self.redactState.isEmpty),
      ("--redact-action", !self.redactAction.isEmpty),
      ("--last", self.last != nil), ("--max-size", self.maxSize != nil),
      ("--description", self.description != nil), ("--app-version", self.appVersion != nil),
      ("--os", self.os != nil),
    ].filter(\.1).map(\.0)
    guard refused.isEmpty else {
      throw CommandFailure(
        "--states writes the states as recorded; it takes no \(refused.joined(separator: ", ")).",
        code: 2)
    }
    guard recording.hasEveryState else {
      throw CommandFailure(
        """
        \(destination.lastPathComponent) was not written: the recording has no step updates \
        (it was made before they were recorded), so only its checkpoints hold states. \
        "replay rerecord" writes it again with them, when this replay has the feature.
        """)
    }
    let manager = FileManager.default
    let temporary = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).export")
    try? manager.removeItem(at: temporary)
    guard manager.createFile(atPath: temporary.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary.path)
    else {
      throw CommandFailure("\(temporary.path) cannot be written.")
    }
    var states = RecordedStates(recording)
    var line: [UInt8] = []
    do {
      for step in 0...recording.count {
        let state = try states.state(after: step)
        let time = step == 0 ? 0 : recording.time(ofAction: step).nanoseconds
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: Array(#"{"state":"#.utf8))
        state.write(into: &line)
        line.append(contentsOf: Array(",\"step\":\(step),\"time\":\(time)}\n".utf8))
        try handle.write(contentsOf: line)
      }
      try handle.close()
    } catch let error as ActionLogError {
      try? handle.close()
      try? manager.removeItem(at: temporary)
      throw CommandFailure(error.description)
    }
    try moveIntoPlace(temporary, destination)
    print("Wrote \(self.output): the states after \(recording.count) steps and the initial one.")
  }
}

/// Moves a file written beside `destination` into its place, replacing what is there in one
/// step (`rename(2)`): the old file stays whole until the new one is in place. (Foundation's
/// `replaceItemAt` on Linux removed the old file and then failed.)
func moveIntoPlace(_ temporary: URL, _ destination: URL) throws {
  guard rename(temporary.path, destination.path) == 0 else {
    let reason = String(cString: strerror(errno))
    try? FileManager.default.removeItem(at: temporary)
    throw CommandFailure("\(destination.path) could not be written: \(reason).")
  }
}
