import Foundation

// `verify`: re-run the recording with today's reducer.
extension Interpreter.Command {
  /// `verify`.
  static let verify = Self(
    names: ["verify"], usage: "verify",
    summary: "Re-run the recording with today's reducer and report the first step that differs."
  ) { interpreter, _ in try interpreter.verify() }
}

extension Interpreter {
  func verify() throws -> String {
    var wasInterrupted = false
    let divergence = try self.session.verifyRecording(everyStep: true, willReplay: { _ in }) {
      wasInterrupted = wasInterrupted || self.interrupted()
      return wasInterrupted
    }
    if wasInterrupted { return "\nInterrupted: the recording was not verified to its end." }
    guard let divergence else {
      let recording = self.session.recording
      return """
        Today's reducer reproduces \(whatIsReproduced(recording, everyStep: true)).
        """
    }
    self.failed = true
    return self.style.diff(divergence.description) + "\n\"goto \(divergence.step)\" stands there."
  }
}
