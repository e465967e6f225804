import ActionLog
import CustomDump
import Foundation
import StepChanges
import TimeTravel

// The breakpoints an editor sets: on lines, on action cases, on state values.
extension DebugAdapter {

  func setBreakpoints(_ arguments: DAPArguments) throws -> JSONValue {
    let path = URL(fileURLWithPath: try arguments.requiredString("source.path"))
      .standardizedFileURL.path
    var breakpoints: [LineBreakpoint] = []
    let given =
      try arguments.array("breakpoints")
      ?? (try arguments.array("lines") ?? []).map {
        DAPArguments(command: $0.command, value: .fields(["line": $0.value]))
      }
    for entry in given {
      let conditionText = try entry.string("condition").flatMap { $0.isEmpty ? nil : $0 }
      var condition: ValueCondition?
      var message: String?
      if let conditionText {
        do {
          condition = try ValueCondition(conditionText)
        } catch {
          message = "The condition does not read: \(error)"
        }
      }
      let hit = try entry.string("hitCondition").flatMap { $0.isEmpty ? nil : $0 }
      var breakpoint = LineBreakpoint(
        id: self.nextBreakpointID, path: path, line: try entry.requiredInt("line"),
        condition: condition, conditionText: conditionText,
        hitCondition: try hit.map(HitCondition.init),
        logMessage: try entry.string("logMessage").flatMap { $0.isEmpty ? nil : $0 })
      self.nextBreakpointID += 1
      self.resolve(&breakpoint)
      if let message { breakpoint.message = message }
      breakpoints.append(breakpoint)
    }
    self.lineBreakpoints[path] = breakpoints
    return .fields(["breakpoints": .array(breakpoints.map(self.describe))])
  }

  func resolve(_ breakpoint: inout LineBreakpoint) {
    guard let sites = self.sites, let sources = self.sources, let session = self.session else {
      breakpoint.message = "Waiting for the recording to open (launch)."
      return
    }
    breakpoint.steps = sites.steps(path: breakpoint.path, line: breakpoint.line, index: sources)
    let name = URL(fileURLWithPath: breakpoint.path).lastPathComponent
    if breakpoint.steps.isEmpty {
      let lines = sites.lines(path: breakpoint.path)
      breakpoint.message =
        session.recording.hasCallSites
        ? "No step of the recording was sent from \(name):\(breakpoint.line), nor fed back by an "
          + "effect made there"
          + (lines.isEmpty
            ? "; none was sent from \(name)."
            : ". Lines of \(name) that did: \(lines.map(String.init).joined(separator: ", ")).")
        : "The recording does not say where its actions were sent from (it was made before call "
          + "sites were recorded)."
    } else {
      breakpoint.message = "\(counted(breakpoint.steps.count, "step")) sent from here"
    }
  }

  func describe(_ breakpoint: LineBreakpoint) -> JSONValue {
    .fields([
      "id": .integer(Int64(breakpoint.id)), "verified": .bool(breakpoint.verified),
      "line": .integer(Int64(breakpoint.line)), "message": .text(breakpoint.message),
      "source": .fields([
        "name": .string(URL(fileURLWithPath: breakpoint.path).lastPathComponent),
        "path": .string(breakpoint.path),
      ]),
    ])
  }

  func setFunctionBreakpoints(_ arguments: DAPArguments) throws -> JSONValue {
    var answers: [JSONValue] = []
    self.functionBreakpoints = []
    for entry in try arguments.array("breakpoints") ?? [] {
      let name = try entry.requiredString("name")
      let id = self.nextBreakpointID
      self.nextBreakpointID += 1
      self.functionBreakpoints.append((id, ActionBreakpoint(name)))
      answers.append(
        .fields([
          "id": .integer(Int64(id)), "verified": true,
          "message": .string("Stops at actions with a case named \(name), or whose text holds it"),
        ]))
    }
    return .fields(["breakpoints": .array(answers)])
  }

  func dataBreakpointInfo(_ arguments: DAPArguments) throws -> JSONValue {
    let name = try arguments.requiredString("name")
    var path: StatePath?
    if let reference = try arguments.int("variablesReference"), reference > 0 {
      guard case let .value(_, parent)? = self.variables.node(reference), let parent else {
        return .fields([
          "dataId": .null,
          "description": .string("Only the state's values can be watched: \(name) is not one."),
        ])
      }
      path = StatePath.children(of: try self.value(at: parent)).first { $0.label == name }
        .map { parent.appending($0.component) }
    } else {
      path = try? StatePath(name)
    }
    guard let path else {
      return .fields([
        "dataId": .null, "description": .string("\(name) is not a state path."),
      ])
    }
    return .fields([
      "dataId": .string(path.description),
      "description": .string("When \(path) changes"),
      "accessTypes": .array(["write"]), "canPersist": true,
    ])
  }

  func value(at path: StatePath) throws -> Any {
    try path.value(in: try self.launched("dataBreakpointInfo").currentState)
  }

  func setDataBreakpoints(_ arguments: DAPArguments) throws -> JSONValue {
    var answers: [JSONValue] = []
    self.dataBreakpoints = []
    for entry in try arguments.array("breakpoints") ?? [] {
      let dataId = try entry.requiredString("dataId")
      let id = self.nextBreakpointID
      self.nextBreakpointID += 1
      do {
        let path = try StatePath(dataId)
        let condition = try entry.string("condition").flatMap { $0.isEmpty ? nil : $0 }.map {
          try ValueCondition(ValueCondition.isCondition($0) ? $0 : "\(dataId) \($0)")
        }
        self.dataBreakpoints.append((id, path, condition))
        answers.append(
          .fields([
            "id": .integer(Int64(id)), "verified": true,
            "message": .string("Stops where \(path) changes"),
          ]))
      } catch {
        answers.append(
          .fields([
            "id": .integer(Int64(id)), "verified": false, "message": .string("\(error)"),
          ]))
      }
    }
    return .fields(["breakpoints": .array(answers)])
  }
}
