import ActionLog
import Foundation
import TimeTravel

extension ReplayCommand.Export {
  /// `--scope PATH`: the child's own recording.
  func writeScope(_ path: String, of recording: Recording, to destination: URL) throws {
    let refused = [
      ("--redact-state", !self.redactState.isEmpty),
      ("--redact-action", !self.redactAction.isEmpty),
      ("--last", self.last != nil), ("--max-size", self.maxSize != nil),
      ("--states", self.states),
    ].filter(\.1).map(\.0)
    guard refused.isEmpty else {
      throw CommandFailure(
        """
        --scope writes the child's actions as the app recorded them; it takes no \
        \(refused.joined(separator: ", ")): export the child's recording again with them.
        """,
        code: 2)
    }
    let statePath: StatePath
    do {
      statePath = try StatePath(path)
    } catch {
      throw CommandFailure("--scope: \(error)", code: 2)
    }
    if let presentation = self.presentation, presentation < 1 {
      throw CommandFailure("--presentation counts from 1: not \(presentation).", code: 2)
    }
    if let from = self.from, from < 0 || from > recording.count {
      throw CommandFailure(
        "--from takes a step from 0 to \(recording.count), the last: not \(from).", code: 2)
    }
    let session = openSession(recording, ReplayCommand.catalog)
    var states: ((Int) throws -> JSONValue)?
    if !recording.hasEveryState, session.isReplayable {
      states = { step in
        guard let bytes = try session.encodedState(at: step) else {
          throw CommandFailure("the state after step \(step) cannot be computed.")
        }
        return try JSONValue.parse(bytes)
      }
    }
    var metadata: [String: String] = [:]
    if let description = self.description { metadata["description"] = description }
    if let appVersion = self.appVersion { metadata["appVersion"] = appVersion }
    if let os = self.os { metadata["os"] = os }

    let manager = FileManager.default
    let temporary = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).export")
    try? manager.removeItem(at: temporary)
    let child: ChildRecording
    do {
      // NB: The session's recording: read through the feature's migrations, where it has them.
      child = try ChildRecording.export(
        session.recording, path: statePath, from: self.from, presentation: self.presentation ?? 1,
        metadata: metadata, to: temporary, states: states
      ) { start, path in
        try self.childNames(path: path, start: start, session: session)
      }
    } catch let error as ChildRecordingError {
      throw CommandFailure("--scope \(path): \(error)")
    } catch let error as ActionLogError {
      throw CommandFailure(error.description)
    }
    try moveIntoPlace(temporary, destination)
    let header = child.recording.header
    var lines = [
      "Wrote \(self.output): \(child.recording.count) actions of \(child.path), "
        + "feature \"\(header.feature)\" (\(header.stateType))",
      "  from       the state after app step \(child.start); its actions are app steps "
        + StepList.text(child.appSteps).replacingOccurrences(of: ",", with: ", "),
    ]
    if !child.outsideWrites.isEmpty {
      lines.append(
        "  inputs     \(counted(child.outsideWrites.count, "write")) of the rest of the app to its "
          + "state (app step\(child.outsideWrites.count == 1 ? "" : "s") "
          + "\(StepList.text(child.outsideWrites).replacingOccurrences(of: ",", with: ", "))), applied before the next step"
      )
    }
    if let ending = child.ending {
      lines.append(
        "  ended      \(ending.how) at app step \(ending.step)"
          + (ending.cancelled.isEmpty
            ? "" : ", cancelling \(ending.cancelled.joined(separator: ", "))"))
    }
    if child.presentations.count > 1 {
      let spans = child.presentations.enumerated().map {
        "\($0.offset + 1): steps \($0.element.lowerBound)–\($0.element.upperBound)"
      }
      lines.append(
        "  presented  \(child.presentations.count) times (\(spans.joined(separator: "; "))); "
          + "--presentation N or --from STEP picks another")
    }
    if let redacted = redactionSummary(header.redactions) {
      lines.append("  redacted   \(redacted)")
    }
    lines.append("  size       \(child.recording.byteCount) bytes")
    if ReplayCommand.feature(for: header) == nil {
      lines.append(
        """
        To re-run it, register ReplayFeature("\(header.feature)") { YourChildReducer() }, or \
        test it with assertReplay(url) { YourChildReducer() }.
        """)
    }
    print(lines.joined(separator: "\n"))
  }

  /// The child's feature name and types: given, else read from the app's typed state at the
  /// start, else an error saying what to give.
  private func childNames(
    path: StatePath, start: Int, session: any TimelineSession
  ) throws -> ChildRecording.Names {
    var stateType = self.stateType
    var actionType = self.actionType
    if stateType == nil || actionType == nil {
      guard session.isReplayable else {
        throw CommandFailure(
          """
          --scope needs the child's types: this replay cannot re-run \
          "\(session.recording.header.feature)" to find them. Give --state-type and \
          --action-type (Module.ChildFeature.State, Module.ChildFeature.Action), or run the \
          export in a replay built with the app's feature.
          """,
          code: 2)
      }
      try session.goto(start)
      let found = try ChildRecording.typeNames(ofChildAt: path, in: session.currentState)
      stateType = stateType ?? found.state
      actionType = actionType ?? found.action
      guard actionType != nil else {
        throw CommandFailure(
          """
          the child's state type \(found.state) is not a feature's State: give --action-type.
          """,
          code: 2)
      }
    }
    let feature =
      self.feature
      ?? ReplayCommand.catalog.id(ofStateType: stateType!)
      ?? ChildRecording.featureName(forStateType: stateType!)
    return ChildRecording.Names(feature: feature, stateType: stateType!, actionType: actionType!)
  }
}
