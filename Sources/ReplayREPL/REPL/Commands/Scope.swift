import ActionLog
import Foundation
import TimeTravel

// `scope PATH`: the session narrowed to one child feature, cut out of the recording; `scope`
// alone goes back.
extension Interpreter.Command {
  /// `scope [PATH]`.
  static let scope = Self(
    names: ["scope"], usage: "scope [PATH]",
    summary: """
      Narrow the session to the child feature at PATH (path[id: 0].detail, destination.addItem): \
      its own steps, states and actions, the app's writes to it shown as inputs; "scope" alone \
      goes back.
      """
  ) { interpreter, arguments in
    try arguments.text.isEmpty ? interpreter.leaveScope() : interpreter.enterScope(arguments.text)
  }
}

extension Interpreter {
  func enterScope(_ text: String) throws -> String {
    guard self.session.divertedAt == nil else {
      throw InterpreterError(
        "The session is diverted: \"discard\" the diversion before narrowing it to a child.")
    }
    let path: StatePath
    do {
      path = try StatePath(text)
    } catch {
      throw InterpreterError("\(error)")
    }
    let outer = self.session
    let recording = outer.recording
    var states: ((Int) throws -> JSONValue)?
    if !recording.hasEveryState {
      guard outer.isReplayable else {
        throw InterpreterError(
          """
          scope reads every step's state, and this recording has them at checkpoints only: \
          it needs the feature's reducer to compute the others.
          """)
      }
      states = { step in
        guard let bytes = try outer.encodedState(at: step) else {
          throw InterpreterError("The state after step \(step) cannot be computed.")
        }
        return try JSONValue.parse(bytes)
      }
    }
    let position = outer.position
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-scope-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let child: ChildRecording
    do {
      // The presentation at the current step, else the first after it, else the first.
      child = try ChildRecording.export(
        recording, path: path, from: nil, to: folder.appendingPathComponent("child.actionlog"),
        states: states,
        choosing: { presentations in
          presentations.firstIndex { $0.contains(position) }
            ?? presentations.firstIndex { $0.lowerBound > position } ?? 0
        }
      ) { start, path in
        // NB: Without the feature, the child's types are not known: its session is read-only.
        guard outer.isReplayable else {
          return ChildRecording.Names(
            feature: "\(recording.header.feature) \(path)", stateType: "", actionType: "")
        }
        try outer.goto(start)
        let found = try ChildRecording.typeNames(ofChildAt: path, in: outer.currentState)
        let feature =
          self.catalog.id(ofStateType: found.state)
          ?? ChildRecording.featureName(forStateType: found.state)
        return ChildRecording.Names(
          feature: feature, stateType: found.state, actionType: found.action ?? "")
      }
    } catch {
      try? FileManager.default.removeItem(at: folder)
      try? outer.goto(position)
      throw InterpreterError("scope \(text): \(error)")
    }
    try? outer.goto(position)
    let inner = openSession(child.recording, self.catalog)
    // The child's step at the app's current one: its last action at or before it.
    let step = child.appSteps.lastIndex { $0 <= position }.map { $0 + 1 } ?? 0
    try inner.goto(step)
    self.debug.enterScope(inner, child: child, folder: folder)
    self.sessionChanged()
    var lines = [
      "Scoped to \(child.path): \(counted(child.recording.count, "step")), app steps "
        + (child.appSteps.isEmpty
          ? "none" : "\(child.start + 1)–\(child.ending?.step ?? recording.count)")
        + (child.outsideWrites.isEmpty
          ? "" : "; \(counted(child.outsideWrites.count, "write")) of the app shown as inputs")
        + ". \"scope\" alone goes back."
    ]
    if let readOnly = inner as? ReadOnlySession {
      lines.append("Read-only: \(readOnly.reason).")
    }
    lines.append(self.describePosition())
    return lines.joined(separator: "\n")
  }

  func leaveScope() throws -> String {
    guard let scoped = self.scopes.last else {
      throw InterpreterError("The session is not narrowed: \"scope PATH\" narrows it to a child.")
    }
    let childStep = self.session.position
    let appStep =
      childStep == 0
      ? scoped.child.start : scoped.child.appSteps[min(childStep, scoped.child.appSteps.count) - 1]
    try scoped.outer.goto(appStep)
    _ = self.debug.leaveScope()
    self.sessionChanged()
    try? FileManager.default.removeItem(at: scoped.folder)
    return "Back to the whole recording at step \(appStep).\n" + self.describePosition()
  }

  /// Forgets what was read of the session before: the session is another.
  private func sessionChanged() {
    self.caseNamesSeen = nil
    self.caseLabelsSeen = nil
    self.sharedChanges = SharedValueChanges(self.session.recording)
  }
}
