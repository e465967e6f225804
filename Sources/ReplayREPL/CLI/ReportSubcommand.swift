import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay report DIR --last 5m -o FILE`: a bug report from a rolling recording's segments.
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a bug report from the segments of a rolling recording.",
      discussion: """
        A rolling recorder (Recorder(directory:…retention:)) writes a session as segments in \
        DIRECTORY. This joins the newest session's segments (or --session's) and writes the \
        last actions as one ordinary recording: it starts from the state before them, verifies \
        with "replay verify" and opens in the REPL. Temporary files a crash left in DIRECTORY \
        are named and ignored.

        Examples:
          $ replay report ~/Library/Recordings --last 5m -o bug.actionlog
          $ replay report recordings --last 90s -o bug.actionlog --note "It froze"
          $ replay report recordings --list
        """
    )

    @Argument(help: "The folder of a rolling recorder.", completion: .directory)
    var directory: String

    @Option(name: [.short, .customLong("output")], help: "The report to write (.actionlog).")
    var output: String?

    @Option(
      help: "How far back from the last action to start: 5m, 90s, 1h (default: all that is kept).")
    var last: String?

    @Option(help: "The session to report (default: the newest; --list names them).")
    var session: String?

    @Option(help: "What went wrong, in the reporter's words.")
    var note: String?

    @Option(help: "The app's version.")
    var appVersion: String?

    @Option(help: "Another state path to redact (repeatable).")
    var redactState: [String] = []

    @Option(help: "Another action path to redact (repeatable).")
    var redactAction: [String] = []

    @Flag(help: "List the sessions in DIRECTORY instead.")
    var list = false

    @Flag(help: "Replace OUTPUT if it exists.")
    var force = false

    func run() throws {
      try self.reportingFailures {
        let directory = URL(fileURLWithPath: self.directory).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder),
          isFolder.boolValue
        else {
          throw CommandFailure(
            "\(self.directory) is not a folder: give the folder a rolling recorder writes to.",
            code: 2)
        }
        let window = try self.last.map(Self.parseDuration)
        let redactions: Redactions
        do {
          redactions = try Redactions(state: self.redactState, actions: self.redactAction)
        } catch {
          throw CommandFailure("\(error)", code: 2)
        }
        let leftovers = try LogDirectory.leftovers(in: directory)
        if !leftovers.isEmpty {
          FileHandle.standardError.write(
            Data(
              """
              note: ignored \(leftovers.count) temporary \(leftovers.count == 1 ? "file" : "files") \
              an ended process left (no recording, nothing acknowledged): \
              \(leftovers.joined(separator: ", ")). A recorder starting in this folder removes them.

              """.utf8))
        }
        let sessions = try RecordedSession.all(in: directory)
        guard !sessions.isEmpty else {
          throw CommandFailure(
            "\(self.directory) holds no segment of a rolling recording (SESSION-NNNNNN.actionlog).")
        }
        if self.list {
          for session in sessions {
            print(Self.describe(session))
          }
          return
        }
        guard let output = self.output else {
          throw CommandFailure("give -o FILE, the report to write (or --list).", code: 2)
        }
        let chosen: RecordedSession
        if let name = self.session {
          guard let found = sessions.first(where: { $0.name == name }) else {
            throw CommandFailure(
              "no session \(name) in \(self.directory); it holds: "
                + sessions.map(\.name).joined(separator: ", "), code: 2)
          }
          chosen = found
        } else {
          chosen = sessions[sessions.count - 1]
        }
        let destination = URL(fileURLWithPath: output).standardizedFileURL
        if FileManager.default.fileExists(atPath: destination.path) {
          guard self.force else {
            throw CommandFailure("\(destination.path) exists: give --force to replace it.", code: 2)
          }
          try FileManager.default.removeItem(at: destination)
        }
        var metadata: [String: String] = [:]
        if let appVersion = self.appVersion { metadata["appVersion"] = appVersion }
        let joined: Recording
        let summary: ExportSummary
        do {
          joined = try chosen.joined()
          summary = try RecordedSession.bugReport(
            of: joined, to: destination, last: window, note: self.note, metadata: metadata,
            redacting: redactions)
        } catch let error as ActionLogError {
          throw CommandFailure(error.description)
        }
        let first = joined.firstAction
        var lines = [
          "Wrote \(output): \(summary.actions) actions of session \(chosen.name) "
            + (summary.actions == 0
              ? ""
              : "(steps \(first + summary.cutActions)–\(first + joined.count - 1), "
                + Self.format(
                  joined.time(ofAction: joined.count)
                    - joined.time(ofAction: summary.cutActions + 1))
                + " up to its last action)"),
          "  session    \(chosen.segments.count) segments, "
            + (chosen.isFinished
              ? "finished"
              : "unfinished (its recorder was not closed: the app stopped or is still running)"),
          "  size       \(summary.bytes) bytes",
        ]
        let facts = summary.header.metadata.sorted { $0.key < $1.key }.map {
          "\($0.key)=\($0.value)"
        }
        if !facts.isEmpty { lines.append("  metadata   \(facts.joined(separator: ", "))") }
        if let redacted = redactionSummary(summary.header.redactions) {
          lines.append("  redacted   \(redacted)")
        }
        lines.append(
          "  integrity  \(summary.records) records, every checksum and the header checked; "
            + "\(summary.ending)")
        print(lines.joined(separator: "\n"))
      }
    }

    /// One line for `--list`: the session, whether it ended, and what its segments hold; then a
    /// line for each gap (a segment started again after a failed write or sync).
    static func describe(_ session: RecordedSession) -> String {
      let gaps = session.gaps.map { "  gap before \($0.segment.lastPathComponent): \($0.text)" }
      return ([Self.summary(session)] + gaps).joined(separator: "\n")
    }

    private static func summary(_ session: RecordedSession) -> String {
      let ending = session.isFinished ? "finished" : "unfinished"
      let segments = "\(session.segments.count) segment\(session.segments.count == 1 ? "" : "s")"
      guard let joined = try? session.joined(), joined.count > 0 else {
        return "\(session.name)  \(ending)  \(segments)"
      }
      let first = joined.firstAction
      let last = joined.header.startedAt.addingTimeInterval(
        Self.seconds(joined.time(ofAction: joined.count)))
      let formatter = ISO8601DateFormatter()
      return """
        \(session.name)  \(ending)  \(segments), steps \(first)–\(first + joined.count - 1) \
        over \(Self.format(joined.time(ofAction: joined.count) - joined.time(ofAction: 1))), \
        the last at \(formatter.string(from: last))
        """
    }

    static func seconds(_ duration: Duration) -> Double {
      let (seconds, attoseconds) = duration.components
      return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `4m 59.6s`, `12.0s`.
    static func format(_ duration: Duration) -> String {
      let seconds = Self.seconds(duration)
      guard seconds >= 60 else { return String(format: "%.1fs", seconds) }
      let minutes = Int(seconds / 60)
      return String(format: "%dm %.1fs", minutes, seconds - Double(minutes * 60))
    }

    /// `5m`, `90s`, `1h`, `300` (seconds).
    static func parseDuration(_ text: String) throws -> Duration {
      let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
      let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
      for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
        if let number = Double(trimmed.dropLast(suffix.count)), number >= 0,
          number * scale <= 9e9
        {
          return .nanoseconds(Int64(number * scale * 1e9))
        }
      }
      if let number = Double(trimmed), number >= 0, number <= 9e9 {
        return .nanoseconds(Int64(number * 1e9))
      }
      throw CommandFailure(
        "--last takes a time such as 5m, 90s or 1h: not \"\(text)\".", code: 2)
    }
  }
}
