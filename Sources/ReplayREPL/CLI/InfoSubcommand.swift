@_spi(Internals) import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay info FILE`: what a recording is and how it ended.
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what a recording holds and how it ended.",
      discussion: """
        Examples:
          $ replay info Recordings/todos.actionlog
          $ replay info Recordings/todos.actionlog --json | jq .ending
          $ replay info Recordings/field    # a rolling recorder's folder: its sessions, gaps
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
      try self.reportingFailures {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: self.recording.file, isDirectory: &isFolder),
          isFolder.boolValue
        {
          // A rolling recorder's folder: its sessions, as `replay report --list` shows them.
          let sessions = try RecordedSession.all(
            in: URL(fileURLWithPath: self.recording.file))
          guard !sessions.isEmpty else {
            throw CommandFailure(
              "\(self.recording.file) is a folder with no segment of a rolling recording "
                + "(SESSION-NNNNNN.actionlog): give a recording's file.")
          }
          print(sessions.map(Report.describe).joined(separator: "\n"))
          return
        }
        let recording = try self.recording.open()
        print(
          self.json
            ? Self.json(recording, file: self.recording.file)
            : Self.text(recording, file: self.recording.file))
      }
    }

    static func text(_ recording: Recording, file: String) -> String {
      let header = recording.header
      var lines = [
        file,
        "  feature      \(header.feature) (\(header.stateType), \(header.actionType))",
        "  recorded     \(iso8601(header.startedAt)), \(recording.count) actions over "
          + seconds(recording.duration),
        "  checkpoints  \(recording.checkpoints.count) "
          + "(every \(header.checkpointInterval) actions)",
        "  ending       \(recording.ending)",
        "  size         \(recording.byteCount) bytes",
      ]
      if let gap = header.metadata["gap"] {
        // NB: A rolling recording's segment that started again after a failed write or sync.
        lines.insert("  gap          before this segment: \(gap)", at: 5)
      }
      if !header.metadata.isEmpty {
        let metadata = header.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.insert("  metadata     \(metadata.joined(separator: ", "))", at: 5)
      }
      if let redacted = redactionSummary(header.redactions) {
        lines.insert("  redacted     \(redacted)", at: lines.count - 1)
      }
      if let version = versionSummary(recording, ReplayCommand.catalog) {
        lines.insert("  version      \(version)", at: 2)
      }
      if let shared = SharedValueChanges(recording).summary {
        lines.append("  shared       " + shared.dropFirst("Shared values: ".count))
      }
      let sites = recording.callSites
      lines.append(
        sites.isEmpty
          ? "  sent from    not recorded (made before recordings kept call sites)"
          : "  sent from    \(sites.count) source line\(sites.count == 1 ? "" : "s") "
            + "(\"replay list\" shows each action's)")
      if let feature = ReplayCommand.feature(for: header) {
        lines.append("  replayable   yes: this replay knows \"\(feature.id)\"")
      } else {
        lines.append(
          "  replayable   no: this replay does not know \"\(header.feature)\" "
            + "(states come from checkpoints only)"
        )
      }
      for warning in recording.warnings {
        lines.append("  warning      \(warning)")
      }
      for skipped in recording.skippedRecords {
        lines.append("  skipped      \(skipped)")
      }
      return lines.joined(separator: "\n")
    }

    static func json(_ recording: Recording, file: String) -> String {
      struct Summary: Encodable {
        var file: String
        var feature: String
        var stateType: String
        var actionType: String
        var startedAt: String
        var actions: Int
        var durationNanoseconds: Int64
        var checkpoints: [Int]
        var checkpointInterval: Int
        var ending: String
        var bytes: Int
        var metadata: [String: String]
        var redacted: Redacted?
        var schemaVersion: Int?
        var migrated: AppliedMigration?
        var replayable: Bool
        var warnings: [String]
        var skipped: [String]
      }
      struct Redacted: Encodable {
        var actions: [String]
        var state: [String]
      }
      let header = recording.header
      let summary = Summary(
        file: file,
        feature: header.feature,
        stateType: header.stateType,
        actionType: header.actionType,
        startedAt: iso8601(header.startedAt),
        actions: recording.count,
        durationNanoseconds: recording.duration.nanoseconds,
        checkpoints: recording.checkpoints,
        checkpointInterval: header.checkpointInterval,
        ending: "\(recording.ending)",
        bytes: recording.byteCount,
        metadata: header.metadata,
        redacted: header.redactions.isEmpty
          ? nil
          : Redacted(
            actions: header.redactions.actions.map(\.description),
            state: header.redactions.state.map(\.description)
          ),
        schemaVersion: header.schemaVersion == 1 && header.migration == nil
          ? nil : header.schemaVersion,
        migrated: header.migration,
        replayable: ReplayCommand.feature(for: header) != nil,
        warnings: recording.warnings.map(\.description),
        skipped: recording.skippedRecords.map(\.description)
      )
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
      return (try? String(decoding: encoder.encode(summary), as: UTF8.self)) ?? "{}"
    }
  }
}
