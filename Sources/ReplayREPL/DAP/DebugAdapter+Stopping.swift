import ActionLog
import CustomDump
import Foundation
import StepChanges
import TimeTravel

// Moving through the recording, and telling the editor where it stopped.
extension DebugAdapter {

  /// Tells the editor the store stopped; the references of the last stop are let go.
  func stopped(
    _ reason: String, description: String, breakpoints: [Int] = [], text: String? = nil
  ) {
    self.variables.reset()
    self.event(
      "stopped",
      .fields([
        "reason": .string(reason), "threadId": 1, "allThreadsStopped": true,
        "description": .string(description), "text": .text(text),
        "hitBreakpointIds": breakpoints.isEmpty
          ? nil : .array(breakpoints.map { .integer(Int64($0)) }),
      ]))
  }

  func move(_ command: String, _ arguments: DAPArguments, seq: Int64) throws {
    let session = try self.launched(command)
    guard session.divertedAt == nil else {
      throw DAPError(
        "\(command): the session is on a diversion (send): evaluate \"discard\" to go back to "
          + "the recording first.")
    }
    let position = session.position
    switch command {
    case "next", "stepBack":
      let forward = command == "next"
      let target = position + (forward ? 1 : -1)
      self.respond(to: seq, command)
      self.goOrStayAtTheEnd(target, forward: forward)
    case "stepIn":
      // Into what the step's effects fed back: the first such action.
      let fedBack = session.recording.actionsFedBack(by: position).first { $0 > position }
      self.respond(to: seq, command)
      self.goOrStayAtTheEnd(fedBack ?? position + 1, forward: true)
    case "stepOut":
      // Out to the next action sent to the store: past what the current one set off.
      var step = position + 1
      while step <= session.count, session.recording.origin(ofAction: step) != .send { step += 1 }
      self.respond(to: seq, command)
      self.goOrStayAtTheEnd(step, forward: true)
    case "goto":
      let target = try arguments.requiredInt("targetId")
      guard target >= 0, target <= session.count else {
        throw DAPError("goto: step \(target) is not in the recording (0–\(session.count)).")
      }
      try session.goto(target)
      self.respond(to: seq, command)
      self.stopped("goto", description: "Step \(target)")
    default:
      self.respond(
        to: seq, command,
        body: command == "continue" ? .fields(["allThreadsContinued": true]) : nil)
      self.search(forward: command == "continue")
    }
  }

  /// Moves to `target`, or stops at the end it would pass and says so.
  func goOrStayAtTheEnd(_ target: Int, forward: Bool) {
    guard let session = self.session else { return }
    guard target >= 0, target <= session.count else {
      self.stopAtTheEnd(forward: forward)
      return
    }
    do {
      try session.goto(target)
      self.stopped("step", description: "Step \(target)")
    } catch {
      self.output("\(error)", category: "stderr")
      self.stopped("step", description: "Step \(session.position)")
    }
  }

  func stopAtTheEnd(forward: Bool) {
    guard let session = self.session else { return }
    let end = forward ? session.count : 0
    try? session.goto(end)
    let words =
      forward
      ? "The end of the recording: step \(end) of \(session.count)."
      : "The start of the recording: the initial state."
    self.output(words)
    self.stopped("step", description: words, text: forward ? "end" : "start")
  }

  /// `continue` and `reverseContinue`: to the nearest step a breakpoint stops at, else the end.
  func search(forward: Bool) {
    guard let session = self.session else { return }
    let start = session.position
    do {
      // Watched values and action breakpoints: the session's own search.
      var found: (step: Int, reasons: [String], ids: [Int], reason: String)?
      if !self.dataBreakpoints.isEmpty || !self.functionBreakpoints.isEmpty {
        found = try self.searchSession(forward: forward)
      }
      // Lines, up to that step.
      let limit = found?.step
      var candidates: [(step: Int, path: String, index: Int)] = []
      for (path, breakpoints) in self.lineBreakpoints {
        for (index, breakpoint) in breakpoints.enumerated() {
          for step in breakpoint.steps
          where (forward ? step > start : step < start)
            && limit.map({ forward ? step <= $0 : step >= $0 }) ?? true
          {
            candidates.append((step, path, index))
          }
        }
      }
      candidates.sort { forward ? $0.step < $1.step : $0.step > $1.step }
      for candidate in candidates {
        if let found, candidate.step == found.step { break }
        var breakpoint = self.lineBreakpoints[candidate.path]![candidate.index]
        breakpoint.hits += 1
        self.lineBreakpoints[candidate.path]![candidate.index] = breakpoint
        if let hit = breakpoint.hitCondition, !hit.stops(atHit: breakpoint.hits) { continue }
        try session.goto(candidate.step)
        if let condition = breakpoint.condition {
          let dump = try? condition.condition.path.dump(in: session.currentState)
          guard condition.holds(forDump: dump) else { continue }
        }
        if let message = breakpoint.logMessage {
          self.output(self.interpolate(message, in: session))
          continue
        }
        let name = URL(fileURLWithPath: candidate.path).lastPathComponent
        self.stopped(
          "breakpoint", description: "\(name):\(breakpoint.line), step \(candidate.step)",
          breakpoints: [breakpoint.id])
        return
      }
      if let found {
        try session.goto(found.step)
        self.stopped(
          found.reason, description: found.reasons.joined(separator: "; "), breakpoints: found.ids)
        return
      }
      self.stopAtTheEnd(forward: forward)
    } catch {
      self.output("\(error)", category: "stderr")
      try? session.goto(start)
      self.stopped("exception", description: "\(error)")
    }
  }

  /// The next step a data or function breakpoint stops at, by the session's search (which
  /// moves the session there, and leaves it where it was when none does).
  func searchSession(
    forward: Bool
  ) throws -> (step: Int, reasons: [String], ids: [Int], reason: String)? {
    guard let session = self.session else { return nil }
    let stops =
      self.dataBreakpoints.map { id, path, condition in
        SessionStop(id: id, kind: .watch(path, condition: condition))
      }
      + self.functionBreakpoints.map { id, breakpoint in
        SessionStop(id: id, kind: .breakpoint(breakpoint))
      }
    guard let found = try session.searchStops(stops, forward: forward, isCancelled: { false })
    else { return nil }
    var reasons: [String] = []
    for hit in found.hits {
      let reason =
        switch hit.reason {
        case let .watch(path, old, new, _):
          "\(path): \(oneLine(SearchStop.shown(old))) → \(oneLine(SearchStop.shown(new)))"
        case let .breakpoint(breakpoint): "\(breakpoint)"
        }
      // NB: Two stops that hold for the same change say it once.
      if !reasons.contains(reason) { reasons.append(reason) }
    }
    let onlyActions = found.hits.allSatisfy {
      if case .breakpoint = $0.reason { true } else { false }
    }
    return (
      found.step, reasons, found.hits.map(\.id),
      onlyActions ? "function breakpoint" : "data breakpoint"
    )
  }

  /// A log message with each `{path}` replaced by the value there.
  func interpolate(_ message: String, in session: any TimelineSession) -> String {
    var text = ""
    var rest = Substring(message)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      text += rest[..<open]
      let expression = String(rest[rest.index(after: open)..<close])
      text +=
        (try? StatePath(expression).dump(in: session.currentState)).map(oneLine)
        ?? "‹\(expression)?›"
      rest = rest[rest.index(after: close)...]
    }
    return "step \(session.position): " + text + rest
  }
}
