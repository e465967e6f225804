import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay verify FILE`: does today's reducer still do what the recording shows?
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Re-run a recording with today's reducer and compare every step.",
      discussion: """
        Compares the state after every step when the recording has step updates (a recording \
        made before them, or --checkpoints-only, at its checkpoints). Exits with 0 when every \
        state compared is reproduced, 1 with the first difference when one \
        is not, 2 when the recording cannot be re-run here (another feature, or a newer \
        version), 3 when its types changed since it was made and it needs a migration (the \
        message writes the step), and 4 when its whole records before a damaged one reproduce \
        but the rest could not be read (--skip-damaged verifies past it).

        With --integrity, checks the file instead, for any feature: the header, every record's \
        checksum and sequence number, and the end record. Exits with 0 when the file is whole \
        and intact, 1 naming each damaged record and its byte offset when it is not.

        With --isolated, the reducer runs in a child process: a reducer that traps on a \
        recording (an overflow on a value a hostile or old recording holds, say) is reported \
        with the step it trapped at, and exit status 1, instead of ending replay itself.

        Examples:
          $ replay verify Recordings/todos.actionlog
          $ replay verify --integrity bug-report.actionlog
          $ replay verify --isolated attachment.actionlog
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Flag(help: "Check the header and every record's checksum, without re-running the reducer.")
    var integrity = false

    @Flag(help: "Re-run the reducer in a child process, so that a trap in it becomes a verdict.")
    var isolated = false

    @Flag(
      help: """
        Compare the states at the recording's checkpoints only, not after every step: faster, \
        but a change undone before the next checkpoint goes unseen.
        """)
    var checkpointsOnly = false

    @Flag(
      help: """
        Read the recording with today's types as it is, without the feature's migrations: what \
        it needs migrating, step by step.
        """)
    var asIs = false

    @Option(help: ArgumentHelp("Where an isolated child marks its step.", visibility: .private))
    var stepFile: String?

    func run() throws {
      try self.reportingFailures {
        if self.integrity { return try self.checkIntegrity() }
        // From the start: Ctrl-C while the recording opens stops the replay at its first look.
        Interruption.install()
        if self.isolated { return try self.verifyInChild() }
        let (recording, feature) = try self.recording.openReplayable()
        let session = try self.asIs ? feature.openAsIs(recording) : feature.open(recording)
        let marker = self.stepFile.flatMap(StepMarker.init(path:))
        let progress = ReplayProgress(count: recording.count)
        var current = 0
        let divergence = try session.verifyRecording(
          everyStep: !self.checkpointsOnly,
          willReplay: { step in
            current = step
            marker?.mark(step)
            progress?.show(step)
          },
          isCancelled: { Interruption.isRequested }
        )
        progress?.clear()
        if let divergence {
          print(divergence)
          throw ExitCode(1)
        }
        let name = URL(fileURLWithPath: self.recording.file).lastPathComponent
        if Interruption.isRequested, current < recording.count {
          print(
            """
            \(name): interrupted at step \(current) of \(recording.count); today's reducer \
            reproduces the recording up to there.
            """
          )
          throw ExitCode(Interruption.exitStatus)
        }
        print(
          "\(name): today's reducer reproduces "
            + "\(whatIsReproduced(recording, everyStep: !self.checkpointsOnly))."
        )
        if recording.ending != .clean {
          print("note: the recording is \(recording.ending); only its whole records were verified.")
        }
        // NB: A torn tail or a missing end record is how a crash leaves a recording; damage in
        // the middle is not, and the records after it were not verified.
        if case .damaged = recording.ending {
          throw ExitCode(ReplayCommand.damagedStatus)
        }
      }
    }

    /// `--integrity`: reads every record, skipping damaged ones so that all are reported.
    private func checkIntegrity() throws {
      let name = URL(fileURLWithPath: self.recording.file).lastPathComponent
      let recording = try self.recording.open(recovery: .skipDamagedRecords)
      var problems = recording.skippedRecords.map(\.description)
      switch recording.ending {
      case .clean: break
      case .unterminated: problems.append("it has no end record: the recorder did not close it")
      default: problems.append("it is \(recording.ending)")
      }
      for warning in recording.warnings {
        if case .note = warning { continue }
        problems.append("\(warning)")
      }
      guard problems.isEmpty else {
        print("\(name) is damaged:")
        for problem in problems { print("  • \(problem)") }
        print(
          """
          Its whole records still open (replay \(self.recording.file) --skip-damaged); ask for \
          the recording again if it matters.
          """
        )
        throw ExitCode(1)
      }
      print(
        """
        \(name) is intact: the header (format \(recording.header.format), feature \
        "\(recording.header.feature)"), \(recording.count) actions and \
        \(counted(recording.checkpoints.count, "checkpoint")), every checksum matching, and the \
        end record.
        """
      )
    }
  }
}
