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
  let send: (JSONValue) -> Void
  var seq = 0
  /// The debugging session, once launched: the one the REPL's commands drive too.
  var debug: DebugSession?
  /// REPL commands typed in the debug console (`evaluate`), over the same session.
  private var console: Interpreter?
  var sources: SourceIndex?
  var sites: StepsBySite?
  var configured = false
  var stopOnEntry = true
  var stoppedOnce = false
  var lineBreakpoints: [String: [LineBreakpoint]] = [:]
  var dataBreakpoints: [(id: Int, path: StatePath, condition: ValueCondition?)] = []
  var functionBreakpoints: [(id: Int, breakpoint: ActionBreakpoint)] = []
  var nextBreakpointID = 1
  let variables = VariableStore()
  /// Set by `disconnect` and `terminate`: the process ends with it once the answer is out.
  private(set) var exitStatus: Int32?

  /// The features this `replay` can re-run.
  let catalog: FeatureCatalog

  init(catalog: FeatureCatalog, send: @escaping (JSONValue) -> Void) {
    self.catalog = catalog
    self.send = send
  }

  var session: (any TimelineSession)? { self.debug?.timeline }

  /// The interpreter that runs REPL commands typed in the debug console, over the session.
  var consoleInterpreter: Interpreter? {
    guard let debug = self.debug else { return nil }
    if let console = self.console, console.debug === debug { return console }
    let console = Interpreter(debug: debug)
    self.console = console
    return console
  }

  // MARK: - Messages

  func nextSeq() -> Int64 {
    self.seq += 1
    return Int64(self.seq)
  }

  func respond(to request: Int64, _ command: String, body: JSONValue? = nil) {
    self.send(
      .fields([
        "seq": .integer(self.nextSeq()), "type": "response", "request_seq": .integer(request),
        "success": .bool(true), "command": .string(command), "body": body,
      ]))
  }

  func fail(_ request: Int64, _ command: String, _ message: String) {
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

  func output(_ text: String, category: String = "console") {
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

  func dispatch(_ command: String, _ arguments: DAPArguments, seq: Int64) throws {
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

  func launched(_ command: String) throws -> any TimelineSession {
    guard let session = self.session else {
      throw DAPError(
        "\(command): no recording is open yet: send \"launch\" with \"recording\": PATH first.")
    }
    return session
  }

  // MARK: - Launching

  func launch(_ arguments: DAPArguments) throws {
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
    let session = openSession(recording, self.catalog)
    self.debug = DebugSession(session, catalog: self.catalog)
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

  func stopAtEntryWhenReady() {
    guard self.configured, self.session != nil, !self.stoppedOnce else { return }
    self.stoppedOnce = true
    if self.stopOnEntry {
      self.stopped("entry", description: "The initial state")
    } else {
      self.search(forward: true)
    }
  }
}
