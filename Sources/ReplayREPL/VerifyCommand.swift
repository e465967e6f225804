import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay verify FILE`: does today's reducer still do what the recording shows?
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Re-run a recording with today's reducer and compare every checkpoint.",
      discussion: """
        Exits with 0 when every checkpoint is reproduced, 1 with the first difference when one \
        is not, and 2 when the recording cannot be re-run here.

        Example:
          $ replay verify Recordings/todos.actionlog
        """
    )

    @OptionGroup var recording: RecordingOptions

    func run() throws {
      try self.reportingFailures {
        let recording = try self.recording.open()
        let id = recording.header.feature
        guard let feature = ReplayCommand.feature(id) else {
          let known = ReplayCommand.features.map(\.id).joined(separator: ", ")
          throw CommandFailure(
            """
            this replay does not know the feature "\(id)" (it knows \(known)), so it cannot \
            re-run the recording. Build a replay that registers it with ReplayFeature.
            """,
            code: 2
          )
        }
        let session = try feature.open(recording)
        if let divergence = try session.verifyRecording(isCancelled: { false }) {
          print(divergence)
          throw ExitCode(1)
        }
        let name = URL(fileURLWithPath: self.recording.file).lastPathComponent
        print(
          "\(name): today's reducer reproduces all \(recording.checkpoints.count) checkpoints of \(recording.count) actions."
        )
        if recording.ending != .clean {
          print("note: the recording is \(recording.ending); only its whole records were verified.")
        }
      }
    }
  }
}
