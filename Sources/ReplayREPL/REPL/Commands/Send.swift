import Foundation
import TimeTravel

// `send ACTION` and `discard`: a diversion from the recording, and leaving it.
extension Interpreter.Command {
  /// `send ACTION`: an action as the REPL prints it, or as JSON.
  static let send = Self(
    names: ["send"], usage: "send ACTION",
    summary:
      "Try an action at this step, on a diversion, written as the REPL prints it"
      + " (send .incrementButtonTapped) or as JSON."
  ) { interpreter, arguments in try interpreter.send(arguments.text) }

  /// `discard`.
  static let discard = Self(
    names: ["discard"], usage: "discard",
    summary: "Leave the diversion and return to the recording."
  ) { interpreter, _ in interpreter.discard() }
}

extension Interpreter {
  func send(_ text: String) throws -> String {
    guard !text.isEmpty else {
      throw InterpreterError(
        """
        send needs an action, written as the REPL prints it (send .incrementButtonTapped, \
        send .todos(.element(id: UUID(…), action: .checkBoxToggled))) or as the recording's \
        JSON (see "action"): send {"incrementButtonTapped":{}}
        """
      )
    }
    let wasDiverted = self.session.divertedAt != nil
    let result: SentAction
    do {
      if text.first == "{" {
        result = try self.session.send(json: text)
      } else {
        let value: SwiftValue
        do {
          value = try SwiftValueParser.parse(text)
        } catch {
          throw InterpreterError("send: " + error.message(for: text))
        }
        do {
          result = try self.session.send(swift: value)
        } catch let error as ActionJSONError {
          throw self.unknownCase(error, in: value) ?? error
        }
      }
    } catch let error as ActionJSONError {
      guard text.first == "{" else {
        let cases = self.caseNames().sorted()
        throw InterpreterError(
          error.message(about: "This action")
            + (cases.isEmpty
              ? "" : " The cases in this recording: \(cases.joined(separator: ", ")).")
        )
      }
      let examples = self.recordedActionShapes()
      throw InterpreterError(
        "\(error)"
          + (examples.isEmpty
            ? "" : " The recording's actions look like: \(examples.joined(separator: ", "))")
      )
    } catch let error as SwiftValueError {
      throw InterpreterError("send: \(error)")
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

  /// What to say when a case written in Swift is not one its type has: its name, and where.
  func unknownCase(_ error: ActionJSONError, in value: SwiftValue) -> InterpreterError? {
    // NB: An unknown case of an enum, or of one with raw values (where a string was expected).
    guard case let .typeMismatch(type, context) = error.error,
      context.debugDescription.contains("Invalid number of keys") || type == String.self,
      case let .enumCase(name, _)? = value.value(at: context.codingPath.map(\.stringValue))
    else { return nil }
    let cases = self.caseNames().sorted()
    let place =
      context.codingPath.isEmpty
      ? "an action of \(error.type)" : "a case at \(error.error.codingPathDescription)"
    return InterpreterError(
      "send: .\(name) is not \(place)."
        + (cases.isEmpty ? "" : " The cases in this recording: \(cases.joined(separator: ", ")).")
    )
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
