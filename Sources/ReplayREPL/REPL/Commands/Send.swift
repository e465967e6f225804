import Foundation
import TimeTravel

// `send JSON` and `discard`: a diversion from the recording, and leaving it.
extension Interpreter.Command {
  /// `send JSON`.
  static let send = Self(
    names: ["send"], usage: "send JSON",
    summary: "Try an action at this step, on a diversion: send {\"incrementButtonTapped\":{}}."
  ) { interpreter, arguments in try interpreter.send(arguments.text) }

  /// `discard`.
  static let discard = Self(
    names: ["discard"], usage: "discard",
    summary: "Leave the diversion and return to the recording."
  ) { interpreter, _ in interpreter.discard() }
}

extension Interpreter {
  func send(_ json: String) throws -> String {
    guard !json.isEmpty else {
      throw InterpreterError(
        """
        send needs an action as JSON, as the recording holds it (see "action"): \
        send {"incrementButtonTapped":{}}
        """
      )
    }
    let wasDiverted = self.session.divertedAt != nil
    let result: SentAction
    do {
      result = try self.session.send(json: json)
    } catch let error as ActionJSONError {
      let examples = self.recordedActionShapes()
      throw InterpreterError(
        "\(error)"
          + (examples.isEmpty
            ? "" : " The recording's actions look like: \(examples.joined(separator: ", "))")
      )
    }
    var lines = [result.change.map { self.style.diff($0.text) } ?? "(No state changes)"]
    if !result.standIns.isEmpty {
      lines.append(
        """
        It read \(result.standIns.joined(separator: ", ")): nothing was recorded for this action, \
        so stand-ins answered (seeded random UUIDs and numbers, the date 2001-01-01).
        """
      )
    }
    if !wasDiverted, let diversion = self.session.divertedAt {
      lines.append(
        """
        On a diversion from step \(diversion.step): the recording is unchanged. "discard" returns \
        to it.
        """
      )
    }
    return lines.joined(separator: "\n")
  }

  /// One recorded action's JSON per top-level case, from the first actions: what `send` takes.
  func recordedActionShapes() -> [String] {
    var shapes: [String: String] = [:]
    for step in stride(from: 1, through: min(self.session.count, 2_000), by: 1) {
      guard shapes.count < 6, let json = try? self.session.recording.actionJSON(step),
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
        let key = object.keys.first, shapes[key] == nil
      else { continue }
      shapes[key] = json.count <= 80 ? json : "{\"\(key)\":…}"
    }
    return shapes.keys.sorted().map { shapes[$0]! }
  }

  func discard() -> String {
    guard let diversion = self.session.divertedAt else {
      return "Not on a diversion: nothing to discard."
    }
    self.session.discardDiversion()
    return """
      Discarded \(counted(diversion.sent, "action")): back on the recording at step \
      \(diversion.step).
      """
  }
}
