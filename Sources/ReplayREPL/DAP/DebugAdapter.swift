import ActionLog
import CustomDump
import Foundation
import StepChanges
import TimeTravel

/// A Debug Adapter Protocol session over a recording: the store is the one thread, each step a
/// stop, the state and the action its variables, and the line that sent the action its source.
/// It drives the same session the REPL does; `evaluate` runs the REPL's commands.
///
/// Requests come in as JSON bodies (``handle(_:)``); responses and events go out through `send`.
final class DebugAdapter {
  private let send: (JSONValue) -> Void
  private var seq = 0
  private var interpreter: Interpreter?
  private var sources: SourceIndex?
  private var sites: StepsBySite?
  private var configured = false
  private var stopOnEntry = true
  private var stoppedOnce = false
  private var lineBreakpoints: [String: [LineBreakpoint]] = [:]
  private var dataBreakpoints: [(id: Int, path: StatePath, condition: ValueCondition?)] = []
  private var functionBreakpoints: [(id: Int, breakpoint: ActionBreakpoint)] = []
  private var nextBreakpointID = 1
  let variables = VariableStore()
  /// Set by `disconnect` and `terminate`: the process ends with it once the answer is out.
  private(set) var exitStatus: Int32?

  init(send: @escaping (JSONValue) -> Void) {
    self.send = send
  }

  private var session: (any TimelineSession)? { self.interpreter?.session }

  // MARK: - Messages

  private func nextSeq() -> Int64 {
    self.seq += 1
    return Int64(self.seq)
  }

  private func respond(to request: Int64, _ command: String, body: JSONValue? = nil) {
    self.send(
      .fields([
        "seq": .integer(self.nextSeq()), "type": "response", "request_seq": .integer(request),
        "success": .bool(true), "command": .string(command), "body": body,
      ]))
  }

  private func fail(_ request: Int64, _ command: String, _ message: String) {
    self.send(
      .fields([
        "seq": .integer(self.nextSeq()), "type": "response", "request_seq": .integer(request),
        "success": .bool(false), "command": .string(command), "message": .string(message),
        "body": .fields([
          "error": .fields([
            "id": .integer(1), "format": .string(message), "showUser": .bool(true),
          ])
        ]),
      ]))
  }

  func event(_ name: String, _ body: JSONValue? = nil) {
    self.send(
      .fields([
        "seq": .integer(self.nextSeq()), "type": "event", "event": .string(name), "body": body,
      ]))
  }

  private func output(_ text: String, category: String = "console") {
    self.event(
      "output", .fields(["category": .string(category), "output": .string(text + "\n")]))
  }

  /// Answers input that is not a message: a header without its length, a body cut short.
  func malformed(_ reason: String) {
    self.fail(0, "unknown", "The message could not be read: \(reason). It was skipped.")
  }

  /// Handles one message's body.
  func handle(_ body: [UInt8]) {
    let message: JSONValue
    do {
      message = try JSONValue.parse(body)
    } catch {
      self.fail(0, "unknown", "The message is not JSON: \(error). It was skipped.")
      return
    }
    let requestSeq: Int64 =
      if case let .integer(number)? = message["seq"] { number } else { 0 }
    guard case .string("request")? = message["type"],
      case let .string(command)? = message["command"]
    else {
      self.fail(
        requestSeq, "unknown",
        "The message is not a request: it needs \"type\": \"request\" and a \"command\".")
      return
    }
    let arguments = DAPArguments(command: command, value: message["arguments"] ?? .fields([:]))
    if let found = message["arguments"], found != .null, case .object = found {
    } else if let found = message["arguments"], found != .null {
      self.fail(
        requestSeq, command, "\(command): \"arguments\" is \(found.typeName), not an object.")
      return
    }
    do {
      try self.dispatch(command, arguments, seq: requestSeq)
    } catch let error as DAPError {
      self.fail(requestSeq, command, error.message)
    } catch {
      self.fail(requestSeq, command, "\(error)")
    }
  }

  private func dispatch(_ command: String, _ arguments: DAPArguments, seq: Int64) throws {
    switch command {
    case "initialize":
      self.respond(to: seq, command, body: Self.capabilities)
      self.event("initialized")
    case "launch":
      try self.launch(arguments)
      self.respond(to: seq, command)
      self.stopAtEntryWhenReady()
    case "attach":
      throw DAPError("attach: a recording is launched, not attached to: use \"launch\".")
    case "configurationDone":
      self.configured = true
      self.respond(to: seq, command)
      self.stopAtEntryWhenReady()
    case "setBreakpoints":
      self.respond(to: seq, command, body: try self.setBreakpoints(arguments))
    case "setFunctionBreakpoints":
      self.respond(to: seq, command, body: try self.setFunctionBreakpoints(arguments))
    case "setExceptionBreakpoints":
      self.respond(to: seq, command, body: .fields(["breakpoints": .array([])]))
    case "dataBreakpointInfo":
      self.respond(to: seq, command, body: try self.dataBreakpointInfo(arguments))
    case "setDataBreakpoints":
      self.respond(to: seq, command, body: try self.setDataBreakpoints(arguments))
    case "threads":
      let threads: [JSONValue] =
        self.session == nil ? [] : [.fields(["id": 1, "name": "store"])]
      self.respond(to: seq, command, body: .fields(["threads": .array(threads)]))
    case "stackTrace":
      self.respond(to: seq, command, body: try self.stackTrace(arguments))
    case "scopes":
      self.respond(to: seq, command, body: try self.scopes(arguments))
    case "variables":
      let session = try self.launched(command)
      _ = session
      let found = try self.variables.variables(
        of: try arguments.requiredInt("variablesReference"),
        filter: try arguments.string("filter"), start: try arguments.int("start"),
        count: try arguments.int("count"))
      self.respond(to: seq, command, body: .fields(["variables": .array(found)]))
    case "next", "stepBack", "stepIn", "stepOut", "continue", "reverseContinue", "goto":
      try self.move(command, arguments, seq: seq)
    case "pause":
      _ = try self.launched(command)
      self.respond(to: seq, command)
      self.stopped("pause", description: "Paused at step \(self.session?.position ?? 0)")
    case "restart":
      let session = try self.launched(command)
      if session.divertedAt != nil { session.discardDiversion() }
      try session.goto(0)
      self.respond(to: seq, command)
      self.stopped("entry", description: "Restarted at the initial state")
    case "evaluate":
      let (body, moved) = try self.evaluate(arguments)
      self.respond(to: seq, command, body: body)
      // NB: After the answer: what the command did to the position, the editor shows anew.
      if let moved { self.stopped("goto", description: moved) }
    case "disconnect":
      self.respond(to: seq, command)
      self.exitStatus = 0
    case "terminate":
      self.respond(to: seq, command)
      self.event("terminated")
      self.exitStatus = 0
    default:
      throw DAPError(
        """
        "\(command)" is not a request this adapter answers. It answers \
        \(Self.commands.joined(separator: ", ")).
        """)
    }
  }

  static let commands = [
    "initialize", "launch", "configurationDone", "setBreakpoints", "setFunctionBreakpoints",
    "setExceptionBreakpoints", "dataBreakpointInfo", "setDataBreakpoints", "threads",
    "stackTrace", "scopes", "variables", "next", "stepBack", "stepIn", "stepOut", "continue",
    "reverseContinue", "goto", "pause", "restart", "evaluate", "disconnect", "terminate",
  ]

  static let capabilities: JSONValue = .fields([
    "supportsConfigurationDoneRequest": true,
    "supportsStepBack": true,
    "supportsConditionalBreakpoints": true,
    "supportsHitConditionalBreakpoints": true,
    "supportsLogPoints": true,
    "supportsFunctionBreakpoints": true,
    "supportsDataBreakpoints": true,
    "supportsEvaluateForHovers": true,
    "supportsRestartRequest": true,
    "supportsTerminateRequest": true,
    "supportsDelayedStackTraceLoading": true,
    "supportsValueFormattingOptions": false,
    "exceptionBreakpointFilters": .array([]),
  ])

  private func launched(_ command: String) throws -> any TimelineSession {
    guard let session = self.session else {
      throw DAPError(
        "\(command): no recording is open yet: send \"launch\" with \"recording\": PATH first.")
    }
    return session
  }

  // MARK: - Launching

  private func launch(_ arguments: DAPArguments) throws {
    guard self.session == nil else {
      throw DAPError("launch: a recording is open already; start another session for another.")
    }
    guard let path = try arguments.string("recording") ?? arguments.string("program") else {
      throw DAPError("launch needs \"recording\", the path of the .actionlog to debug.")
    }
    let root = try arguments.string("sourceRoot") ?? arguments.string("cwd")
    self.stopOnEntry = try arguments.bool("stopOnEntry") ?? true
    let url = URL(fileURLWithPath: path)
    let recording: Recording
    do {
      recording = try Recording(contentsOf: url)
    } catch let error as ActionLogError {
      throw DAPError("launch: \(error.description)")
    }
    let session = openSession(recording)
    self.interpreter = Interpreter(session: session)
    self.sources = SourceIndex(
      root: URL(fileURLWithPath: root ?? FileManager.default.currentDirectoryPath))
    self.sites = StepsBySite(recording)
    for note in notes(on: recording) { self.output(note, category: "stderr") }
    if let readOnly = session as? ReadOnlySession { self.output(readOnly.note, category: "stderr") }
    self.output(
      "\(recording.header.feature): \(recording.count) actions. Step with next and step back; "
        + "the debug console takes the REPL's commands (help).")
    // Breakpoints set before the recording was open find their steps now.
    for path in self.lineBreakpoints.keys {
      for index in self.lineBreakpoints[path]!.indices {
        self.resolve(&self.lineBreakpoints[path]![index])
        self.event(
          "breakpoint",
          .fields([
            "reason": "changed", "breakpoint": self.describe(self.lineBreakpoints[path]![index]),
          ]))
      }
    }
  }

  private func stopAtEntryWhenReady() {
    guard self.configured, self.session != nil, !self.stoppedOnce else { return }
    self.stoppedOnce = true
    if self.stopOnEntry {
      self.stopped("entry", description: "The initial state")
    } else {
      self.search(forward: true)
    }
  }

  // MARK: - Breakpoints

  private func setBreakpoints(_ arguments: DAPArguments) throws -> JSONValue {
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

  private func resolve(_ breakpoint: inout LineBreakpoint) {
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

  private func describe(_ breakpoint: LineBreakpoint) -> JSONValue {
    .fields([
      "id": .integer(Int64(breakpoint.id)), "verified": .bool(breakpoint.verified),
      "line": .integer(Int64(breakpoint.line)), "message": .text(breakpoint.message),
      "source": .fields([
        "name": .string(URL(fileURLWithPath: breakpoint.path).lastPathComponent),
        "path": .string(breakpoint.path),
      ]),
    ])
  }

  private func setFunctionBreakpoints(_ arguments: DAPArguments) throws -> JSONValue {
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

  private func dataBreakpointInfo(_ arguments: DAPArguments) throws -> JSONValue {
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

  private func value(at path: StatePath) throws -> Any {
    try path.value(in: try self.launched("dataBreakpointInfo").currentState)
  }

  private func setDataBreakpoints(_ arguments: DAPArguments) throws -> JSONValue {
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

  // MARK: - Stopping

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

  private func move(_ command: String, _ arguments: DAPArguments, seq: Int64) throws {
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
  private func goOrStayAtTheEnd(_ target: Int, forward: Bool) {
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

  private func stopAtTheEnd(forward: Bool) {
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
        found = try self.searchSession(forward: forward, from: start)
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
  /// moves the session there).
  private func searchSession(
    forward: Bool, from start: Int
  ) throws -> (step: Int, reasons: [String], ids: [Int], reason: String)? {
    guard let session = self.session else { return nil }
    var watches: [StatePath] = []
    for (_, path, _) in self.dataBreakpoints
    where !watches.contains(where: { $0.description == path.description }) {
      watches.append(path)
    }
    let breakpoints = self.functionBreakpoints.map(\.breakpoint)
    while let found = try session.search(
      forward: forward, watching: watches, breakpoints: breakpoints, isCancelled: { false })
    {
      var reasons: [String] = []
      var ids: [Int] = []
      var reason = "data breakpoint"
      for stop in found.stops {
        switch stop {
        case let .watch(path, old, new):
          for (id, watched, condition) in self.dataBreakpoints
          where watched.description == path.description {
            if let condition {
              guard
                !condition.holds(forDump: old == "‹absent›" ? nil : old),
                condition.holds(forDump: new == "‹absent›" ? nil : new)
              else { continue }
            }
            ids.append(id)
            reasons.append("\(path): \(oneLine(old)) → \(oneLine(new))")
          }
        case let .breakpoint(breakpoint):
          for (id, set) in self.functionBreakpoints where set == breakpoint { ids.append(id) }
          reasons.append("\(breakpoint)")
          if ids.count == reasons.count { reason = "function breakpoint" }
        }
      }
      if !ids.isEmpty { return (found.step, reasons, ids, reason) }
    }
    try session.goto(start)
    return nil
  }

  /// A log message with each `{path}` replaced by the value there.
  private func interpolate(_ message: String, in session: any TimelineSession) -> String {
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

  // MARK: - What the editor shows

  private func stackTrace(_ arguments: DAPArguments) throws -> JSONValue {
    let session = try self.launched("stackTrace")
    let recording = session.recording
    var frames: [JSONValue] = []
    var step = session.position
    if let diverted = session.divertedAt {
      frames.append(
        .fields([
          "id": .integer(Int64(diverted.step + 1)), "line": 0, "column": 0,
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

  private func scopes(_ arguments: DAPArguments) throws -> JSONValue {
    let session = try self.launched("scopes")
    let frame = try arguments.requiredInt("frameId")
    let step = frame - 1
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
  private func changes(
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
      let old = before?.value(atPointer: operation.pointer).map { oneLine($0.text) } ?? "‹absent›"
      let new = operation.op == .remove ? "‹absent›" : oneLine(operation.value?.text ?? "null")
      return VariableStore.Entry(name: path, value: "\(old) → \(new)")
    }
  }

  /// The answer to `evaluate`, and what it moved, if it moved the session.
  private func evaluate(_ arguments: DAPArguments) throws -> (JSONValue, moved: String?) {
    let session = try self.launched("evaluate")
    let expression = try arguments.requiredString("expression")
      .trimmingCharacters(in: .whitespaces)
    let context = try arguments.string("context") ?? "repl"
    let firstWord = expression.split(separator: " ").first.map(String.init) ?? ""
    if context == "repl", Interpreter.command(named: firstWord) != nil {
      guard let interpreter = self.interpreter else { throw DAPError("evaluate: not launched.") }
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
}
