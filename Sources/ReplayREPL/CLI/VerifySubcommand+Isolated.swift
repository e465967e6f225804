import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand.Verify {
  /// `--isolated`: runs `replay verify` on the recording in a child process, which marks each
  /// step before replaying it; when the child dies of a signal, says at which step.
  func verifyInChild() throws {
    let recording = try self.recording.open()
    let child = try IsolatedVerification.run(
      file: self.recording.file, skipDamaged: self.recording.skipDamaged,
      checkpointsOnly: self.checkpointsOnly, capturing: false,
      timeout: nil
    )
    switch child.outcome {
    case .exited(0): return
    case .exited(let status): throw ExitCode(status)
    case .interrupted, .timedOut: throw ExitCode(Interruption.exitStatus)
    case .crashed(let signal, let step):
      let name = URL(fileURLWithPath: self.recording.file).lastPathComponent
      print(
        IsolatedVerification.crashVerdict(
          name: name, recording: recording, step: step, signal: signal)
      )
      throw ExitCode(1)
    }
  }
}
