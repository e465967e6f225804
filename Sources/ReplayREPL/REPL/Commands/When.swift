import Foundation

// `when`: the step and time, and the diversion if on one.
extension Interpreter.Command {
  /// `when`.
  static let when = Self(
    names: ["when"], usage: "when", summary: "Say where you are: step and time."
  ) { interpreter, _ in interpreter.when()
  }
}

extension Interpreter {
  func when() -> String {
    let position = self.session.position
    let recording = self.session.recording
    var text = """
      Step \(position) of \(self.session.count), +\(seconds(self.time(of: position))) into a \
      recording of \(seconds(recording.duration)) (\(recording.header.feature), started \
      \(iso8601(recording.header.startedAt))).
      """
    if let diversion = self.session.divertedAt {
      let sent = counted(diversion.sent, "action")
      text += "\nOn a diversion from step \(diversion.step): \(sent) sent."
    }
    return text
  }
}
