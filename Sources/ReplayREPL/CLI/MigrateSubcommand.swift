import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay migrate FILE -o OUT`: a recording of older types, written at today's version.
  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a recording of an older version of the feature at today's version.",
      discussion: """
        Applies the feature's migrations from the recording's version to today's to every state, \
        action and captured value, and writes the result to OUT with fresh checksums; its header \
        keeps the version it was recorded at and the steps applied. OUT is then read back and \
        verified with today's reducer. The original is never changed.

        Exits with 0 when OUT verifies, 1 when it does not or cannot be written, and 2 when this \
        replay does not have the feature or the recording is newer than it.

        Example:
          $ replay migrate Recordings/legacy/todos-v1.actionlog -o todos.actionlog
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(name: [.short, .customLong("output")], help: "Where to write the migrated recording.")
    var output: String

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    func run() throws {
      try self.reportingFailures {
        let (recording, feature) = try self.recording.openReplayable()
        let name = self.recording.name
        let steps = try recording.migrated(to: feature.schema).appliedMigrationSteps
        guard !steps.isEmpty else {
          print(
            """
            \(name) is at version \(recording.header.schemaVersion) of "\(feature.id)", today's \
            version: there is nothing to migrate, and nothing was written.
            """
          )
          return
        }
        let url = URL(fileURLWithPath: self.output)
        try ReplayCommand.makeRoom(at: url, force: self.force)
        let summary = try recording.export(
          to: url, options: ExportOptions(schema: feature.schema))
        print(
          """
          Migrated \(name) from version \(recording.header.schemaVersion) to \
          \(feature.schema.version) with \(counted(steps.count, "step")):
          \(steps.map { "  \($0)" }.joined(separator: "\n"))
          Wrote \(self.output): \(summary.actions) actions, \(summary.bytes) bytes.
          """
        )
        try ReplayCommand.verifyWritten(at: url, with: feature)
      }
    }
  }

  /// `replay rerecord FILE`: the recording again, with the states today's reducer computes.
  struct Rerecord: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record a recording again with today's reducer: new checkpoints, same actions.",
      discussion: """
        Re-runs the recorded actions with the recorded dependency values and writes the \
        recording again, its actions and captured values byte for byte, with the states today's \
        reducer computes at its checkpoints; prints which checkpoints changed, so that a \
        behaviour change is approved on purpose. Replaces FILE unless -o names another file. \
        A recording of an older version is migrated first (replay migrate).

        Exits with 0 when the new recording is written and verifies, 1 otherwise, 2 when this \
        replay does not have the feature.

        Examples:
          $ replay rerecord Recordings/todos.actionlog
          $ replay rerecord bug.actionlog -o bug-today.actionlog
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(
      name: [.short, .customLong("output")], help: "Where to write it (default: in place of FILE).")
    var output: String?

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    func run() throws {
      try self.reportingFailures {
        let (recording, feature) = try self.recording.openReplayable()
        let session = try feature.open(recording)
        let name = self.recording.name
        let target = URL(fileURLWithPath: self.output ?? self.recording.file)
        // Written beside the target and moved into place, so that FILE is replaced only by a
        // whole recording.
        let temporary = target.deletingLastPathComponent()
          .appendingPathComponent(".\(target.lastPathComponent).rerecord-\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
        if self.output != nil { try ReplayCommand.makeRoom(at: target, force: self.force) }
        Interruption.install()
        let progress = ReplayProgress(count: recording.count)
        let rerecorded = try session.rerecord(
          to: temporary, willReplay: { progress?.show($0) },
          isCancelled: { Interruption.isRequested })
        progress?.clear()
        guard let summary = rerecorded else {
          try? FileManager.default.removeItem(at: temporary)
          print("\(name): interrupted; nothing was written.")
          throw ExitCode(Interruption.exitStatus)
        }
        _ = try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: temporary, to: target)
        let changed = summary.changedCheckpoints
        var report =
          changed.isEmpty
          ? """
          Re-recorded \(name) to \(target.path): \(summary.written.actions) actions; today's \
          reducer computes the same state at all \(summary.checkpoints) checkpoints.
          """
          : """
          Re-recorded \(name) to \(target.path): \(summary.written.actions) actions; \
          \(changed.count) of \(summary.checkpoints) checkpoints changed, after actions \
          \(changed.map(String.init).joined(separator: ", ")). Review them (replay verify on \
          the old file shows the first difference) before committing.
          """
        if !summary.changedEffects.isEmpty {
          let steps = summary.changedEffects
          let shown = steps.prefix(20).map(String.init).joined(separator: ", ")
          report += """

            The reducer returns other effects at \(counted(steps.count, "step")): \
            \(shown)\(steps.count > 20 ? ", …" : "").
            """
        } else if !recording.header.hasEffectLedger {
          report += "\nThe new recording has an effect ledger; the old one had none."
        }
        print(report)
        try ReplayCommand.verifyWritten(at: target, with: feature)
      }
    }
  }
}

extension ReplayCommand {
  /// The registered feature of a recording, or a failure with exit status 2.
  static func requireFeature(of recording: Recording) throws -> ReplayFeature {
    let id = recording.header.feature
    guard let feature = Self.feature(for: recording.header) else {
      let known = ReplayCommand.catalog.features.map(\.id).joined(separator: ", ")
      throw CommandFailure(
        """
        this replay does not know the feature "\(id)" (it knows \(known)), so it cannot re-run \
        the recording. Build a replay that registers it with ReplayFeature.
        """,
        code: 2
      )
    }
    return feature
  }

  /// Refuses to replace a file without `force`.
  static func makeRoom(at url: URL, force: Bool) throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    guard force else {
      throw CommandFailure("\(url.path) exists: give --force to replace it.", code: 1)
    }
    try FileManager.default.removeItem(at: url)
  }

  /// Reads a written recording back and verifies it with today's reducer.
  static func verifyWritten(at url: URL, with feature: ReplayFeature) throws {
    let written = try Recording(contentsOf: url)
    let session = try feature.open(written)
    if let divergence = try session.verifyRecording(
      everyStep: true, willReplay: { _ in }, isCancelled: { false })
    {
      throw CommandFailure(
        """
        \(url.path) was written, but today's reducer does not reproduce it:
        \(divergence)
        """
      )
    }
    print(
      """
      Read back: version \(written.header.schemaVersion), and today's reducer reproduces \
      \(whatIsReproduced(written, everyStep: true)).
      """
    )
  }
}
