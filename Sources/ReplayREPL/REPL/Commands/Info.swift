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
  /// Where the current step's action came from, with the source line that sent it: `Step 12
  /// was fed back by an effect of step 11, made at ExampleFeatures/Todos.swift:80.`
  func stepOrigin() -> String? {
    let position = self.session.position
    guard position > 0 else { return nil }
    let recording = self.session.recording
    let site = recording.site(ofAction: position)
    let origin =
      switch recording.origin(ofAction: position) {
      case .send:
        "Step \(position) was sent to the store"
          + (site.map { " at \($0.qualifiedDescription)" } ?? "")
      case .effect(let parent):
        "Step \(position) was fed back by an effect of step \(parent)"
          + (site.map { ", made at \($0.qualifiedDescription)" } ?? "")
      }
    guard site == nil, !recording.hasCallSites else { return origin + "." }
    return origin
      + " (the recording does not say from which line: it was made before recordings kept call sites)."
  }

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
      // A test store's failed assertions, each noted at its step.
      let failures = recording.warnings.compactMap { warning -> Int? in
        guard case let .note(seq, text) = warning, text.hasPrefix("✘") else { return nil }
        return seq
      }
      if !failures.isEmpty {
        text +=
          "\nA test's run: \(counted(failures.count, "failed assertion")), at step"
          + (failures.count == 1 ? " " : "s ") + failures.map(String.init).joined(separator: ", ")
          + "."
      }
      if let gap = metadata["gap"] {
        text += "\nGap before the first step: \(gap)."
      }
      if let cut = metadata["cutFrom"] {
        text += "\nCut from \(cut)."
      }
      if let scope = childScopeSummary(recording) {
        text += "\n\(scope)"
      }
      if let redacted = redactionSummary(recording.header.redactions) {
        text += "\nRedacted at record time: \(redacted)."
      }
      if let shared = self.sharedChanges.summary {
        text += "\n\(shared)"
      }
      if let version = versionSummary(recording, self.catalog) {
        text += "\nVersion \(version)."
      }
      if let readOnly = self.session as? ReadOnlySession {
        text += "\nRead-only: \(readOnly.reason)."
      }
      if let step = self.stepOrigin() {
        text += "\n\(step)"
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
          let line =
            switch stop.kind {
            case let .watch(path): "\(number)watchpoint  \(path)"
            case let .condition(condition): "\(number)watchpoint  \(condition)"
            case let .breakpoint(breakpoint): "\(number)breakpoint  \(breakpoint)"
            }
          // NB: As gdb says how often a breakpoint was hit, under it.
          return stop.hits == 0 ? line : line + "\n     hit \(counted(stop.hits, "time"))"
        }).joined(separator: "\n")
    case let topic?:
      throw InterpreterError(
        "\"info \(topic)\" is not a topic: try \"info\" or \"info breakpoints\"."
      )
    }
  }
}
