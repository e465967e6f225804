import Foundation

// `info [breakpoints]`: the recording's feature, size and ending; or the watchpoints and
// breakpoints.
extension Interpreter.Command {
  /// `info [breakpoints]`.
  static let info = Self(
    names: ["info", "i"], usage: "info [breakpoints]",
    summary: "Show the recording's feature, size and ending; or the watchpoints and breakpoints."
  ) { interpreter, arguments in try interpreter.info(arguments.first) }
}

extension Interpreter {
  func info(_ topic: String?) throws -> String {
    switch topic {
    case nil:
      let recording = self.session.recording
      var text = """
        \(recording.header.feature): \(recording.count) actions over \
        \(seconds(recording.duration)), \
        \(counted(recording.checkpoints.count, "checkpoint")), \(recording.ending)
        """
      // What a bug report's reporter said, and what part of the session it holds.
      let metadata = recording.header.metadata
      for words in [metadata["description"], metadata["note"]].compactMap({ $0 }) {
        text += "\nReported: \"\(words)\""
      }
      if let cut = metadata["cutFrom"] {
        text += "\nCut from \(cut)."
      }
      if let redacted = redactionSummary(recording.header.redactions) {
        text += "\nRedacted at record time: \(redacted)."
      }
      if let shared = self.sharedChanges.summary {
        text += "\n\(shared)"
      }
      if let version = versionSummary(recording) {
        text += "\nVersion \(version)."
      }
      if let readOnly = self.session as? ReadOnlySession {
        text += "\nRead-only: \(readOnly.reason)."
      }
      return text
    case "breakpoints"?, "b"?, "break"?, "watchpoints"?, "watch"?:
      guard !self.stops.isEmpty else {
        return "No watchpoints or breakpoints. Add one with \"watch PATH\" or \"break ACTION\"."
      }
      return
        (["Num  Type        What"]
        + self.stops.map { stop in
          let number = String(stop.number).padding(toLength: 5, withPad: " ", startingAt: 0)
          switch stop.kind {
          case let .watch(path): return "\(number)watchpoint  \(path)"
          case let .breakpoint(breakpoint): return "\(number)breakpoint  \(breakpoint)"
          }
        }).joined(separator: "\n")
    case let topic?:
      throw InterpreterError(
        "\"info \(topic)\" is not a topic: try \"info\" or \"info breakpoints\"."
      )
    }
  }
}
