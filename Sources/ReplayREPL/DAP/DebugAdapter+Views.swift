import ActionLog
import CustomDump
import Foundation
import StepChanges
import TimeTravel

// What the editor shows at a stop: frames, scopes, and what the debug console evaluates.
extension DebugAdapter {

  func stackTrace(_ arguments: DAPArguments) throws -> JSONValue {
    let session = try self.launched("stackTrace")
    let recording = session.recording
    var frames: [JSONValue] = []
    var step = session.position
    if let diverted = session.divertedAt {
      frames.append(
        .fields([
          "id": .integer(Int64(Self.diversionFrame(session))), "line": 0, "column": 0,
          "name": .string(
            "a diversion: \(counted(diverted.sent, "action")) sent at step \(diverted.step)"),
          "presentationHint": "label",
        ]))
    }
    if step == 0 {
      frames.append(
        .fields([
          "id": 1, "name": "the initial state", "line": 0, "column": 0,
          "presentationHint": "label",
        ]))
    }
    // The step, then the action whose effect sent it, and so on.
    var seen: Set<Int> = []
    while step > 0, !seen.contains(step) {
      seen.insert(step)
      let action = (try? session.actionText(at: step)).map(oneLine) ?? "?"
      let site = recording.site(ofAction: step)
      var frame: [String: JSONValue] = [
        "id": .integer(Int64(step + 1)),
        "name": .string(
          "\(step): \(action.count > 160 ? String(action.prefix(159)) + "…" : action)"),
        "line": .integer(Int64(site.map { Int($0.line) } ?? 0)), "column": 1,
      ]
      if let site, let sources = self.sources { frame["source"] = sources.source(of: site) }
      if site == nil { frame["presentationHint"] = "subtle" }
      frames.append(.object(frame))
      guard case let .effect(parent) = recording.origin(ofAction: step) else { break }
      step = parent
    }
    let start = max(0, try arguments.int("startFrame") ?? 0)
    let levels = try arguments.int("levels") ?? 0
    let page = frames.dropFirst(start).prefix(levels > 0 ? levels : frames.count)
    return .fields([
      "stackFrames": .array(Array(page)), "totalFrames": .integer(Int64(frames.count)),
    ])
  }

  func scopes(_ arguments: DAPArguments) throws -> JSONValue {
    let session = try self.launched("scopes")
    let frame = try arguments.requiredInt("frameId")
    // NB: The diversion's frame shows the diverted state, at the step it started from.
    let step = frame == Self.diversionFrame(session) ? session.position : frame - 1
    guard step >= 0, step <= session.count else {
      throw DAPError("scopes: \(frame) is not a frame of this stop: ask stackTrace again.")
    }
    let recording = session.recording
    var scopes: [JSONValue] = []
    func scope(
      _ name: String, _ node: VariableStore.Node, hint: String? = nil, expensive: Bool = false
    ) {
      let count: Int =
        switch node {
        case let .list(entries): entries.count
        case let .value(value, _): StatePath.childCount(of: value)
        }
      scopes.append(
        .fields([
          "name": .string(name), "variablesReference": .integer(Int64(self.variables.add(node))),
          "namedVariables": .integer(Int64(count)), "expensive": .bool(expensive),
          "presentationHint": .text(hint),
        ]))
    }
    let isCurrent = step == session.position
    if isCurrent {
      let title =
        session.divertedAt == nil ? "State after step \(step)" : "State (diverted)"
      scope(title, .value(session.currentState, path: .root), hint: "locals")
    }
    guard step > 0 else { return .fields(["scopes": .array(scopes)]) }
    let action: Any =
      switch try session.actionValue(at: step) {
      case let .typed(value): value
      case let .json(text):
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed))
          ?? text
      }
    let actionText = oneLine(String(customDumping: action))
    scope(
      "Action of step \(step)",
      .list([
        VariableStore.Entry(
          name: "action",
          value: actionText.count > 200 ? String(actionText.prefix(199)) + "…" : actionText,
          child: StatePath.childCount(of: action) > 0 ? .value(action, path: nil) : nil)
      ]), hint: "arguments")
    if isCurrent, session.divertedAt == nil, let changes = try self.changes(at: step, in: session) {
      scope("Changed by step \(step)", .list(changes))
    }
    let captured = (try? recording.action(step, as: JSONValue.self).captured) ?? CapturedValues()
    if !captured.isEmpty {
      scope(
        "Dependencies read",
        .list(
          captured.values.keys.sorted().map { name in
            VariableStore.Entry(
              name: name, value: captured.values[name]!.joined(separator: ", "))
          }))
    }
    let outside = SharedValueChanges(recording)
    let before =
      (outside.bySeq[step - 1] ?? []).map {
        VariableStore.Entry(
          name: $0.name, value: "\($0.source.rawValue): \(oneLine($0.value.text))")
      }
      + (outside.writes[step - 1] ?? []).flatMap { write in
        write.update.map {
          VariableStore.Entry(
            name: "written by the app" + (write.appStep.map { " (app step \($0))" } ?? ""),
            value: SharedValueChanges.describe($0))
        }
      }
    if !before.isEmpty { scope("Changed from outside before step \(step)", .list(before)) }
    let notes = Interpreter.notes(after: step, in: recording)
    if !notes.isEmpty {
      scope(
        "Test notes",
        .list(
          notes.enumerated().map {
            VariableStore.Entry(
              name: "\($0.offset + 1)", value: $0.element.trimmingCharacters(in: .whitespaces))
          }))
    }
    return .fields(["scopes": .array(scopes)])
  }

  /// What the step changed, each path with its old and new value, from the recorded update.
  func changes(
    at step: Int, in session: any TimelineSession
  ) throws -> [VariableStore.Entry]? {
    let recording = session.recording
    guard let update = try? recording.update(ofAction: step) else {
      guard let diff = try session.changes(from: step - 1, to: step) else { return [] }
      return [VariableStore.Entry(name: "diff", value: oneLine(diff.text))]
    }
    let before = try? recording.stateJSON(after: step - 1)
    return update.map { operation in
      let path = SharedValueChanges.describe(
        JSONPatchOperation(operation.op, operation.path, nil)
      ).replacingOccurrences(of: " = null", with: "")
      let old = before?.value(atPointer: operation.pointer).map { oneLine($0.text) }
      let new = operation.op == .remove ? nil : oneLine(operation.value?.text ?? "null")
      return VariableStore.Entry(
        name: path, value: "\(SearchStop.shown(old)) → \(SearchStop.shown(new))")
    }
  }

  /// The answer to `evaluate`, and what it moved, if it moved the session.
  func evaluate(_ arguments: DAPArguments) throws -> (JSONValue, moved: String?) {
    let session = try self.launched("evaluate")
    let expression = try arguments.requiredString("expression")
      .trimmingCharacters(in: .whitespaces)
    let context = try arguments.string("context") ?? "repl"
    let firstWord = expression.split(separator: " ").first.map(String.init) ?? ""
    if context == "repl", Interpreter.command(named: firstWord) != nil {
      guard let interpreter = self.consoleInterpreter else {
        throw DAPError("evaluate: not launched.")
      }
      guard !["quit", "q", "exit"].contains(firstWord) else {
        throw DAPError("evaluate: to leave, stop the debug session (disconnect).")
      }
      let before = (session.position, session.divertedAt?.sent)
      interpreter.failed = false
      let text = interpreter.run(expression)
      if interpreter.failed { throw DAPError(text) }
      let now = interpreter.session
      let moved =
        (now.position, now.divertedAt?.sent) != before || now !== session
        ? "Moved by \(firstWord): step \(now.position)" : nil
      return (.fields(["result": .string(text), "variablesReference": 0]), moved)
    }
    // A state path: hovered, watched, or typed.
    let path: StatePath
    do {
      path = try StatePath(expression)
    } catch {
      throw DAPError(
        "\(error) In the debug console, the REPL's commands work too (help lists them).")
    }
    let value: Any
    do {
      value = try path.value(in: session.currentState)
    } catch {
      throw DAPError("\(error)")
    }
    let variable = self.variables.variable(expression, value, path: path)
    return (
      .fields([
        "result": variable["value"] ?? "",
        "type": variable["type"],
        "variablesReference": variable["variablesReference"] ?? 0,
        "indexedVariables": variable["indexedVariables"],
        "namedVariables": variable["namedVariables"],
      ]), nil
    )
  }

  /// The id of a diversion's frame: past every step's (a step's is the step plus one).
  static func diversionFrame(_ session: any TimelineSession) -> Int {
    session.count + 2
  }
}
