import ActionLog
import Foundation
import TestSupport
import Testing

/// `replay dap` driven as an editor drives it, over real pipes to the built `replay`.
@Suite struct DAPTests {
  static let root = packageRoot
  static let todosView = packageRoot.appendingPathComponent(
    "Sources/ExampleFeatures/Todos/TodosView.swift"
  ).path

  func client() throws -> DAPClient {
    try DAPClient(executable: try #require(productURL("replay")), in: Self.root)
  }

  /// The line of `TodosView.swift` that sends `text`.
  static func line(sending text: String) throws -> Int {
    let lines = try String(contentsOfFile: Self.todosView, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains("store.send(\(text))") }) + 1
  }

  func success(_ answer: (response: JSONValue?, events: [JSONValue])) -> Bool {
    answer.response?["success"] == .bool(true)
  }

  @Test func anEditorStepsThroughTheTodosRecording() throws {
    let client = try self.client()
    let initialized = client.request("initialize", ["adapterID": "composable-replay"])
    #expect(initialized.response?["body"]?["supportsStepBack"] == .bool(true))
    let addLine = try Self.line(sending: ".addTodoButtonTapped")
    let set = client.request(
      "setBreakpoints",
      [
        "source": ["path": .string(Self.todosView)],
        "breakpoints": [
          ["line": .integer(Int64(addLine))], ["line": .integer(Int64(addLine + 1))],
        ],
      ])
    #expect(self.success(set))
    let launch = client.request(
      "launch",
      ["recording": "Recordings/todos.actionlog", "sourceRoot": .string(Self.root.path)])
    #expect(self.success(launch), "\(launch)")
    // Set before the recording was open, the breakpoints find their steps now.
    let changed = launch.events.filter { $0["event"] == "breakpoint" }
    #expect(changed.map { $0["body"]?["breakpoint"]?["verified"] } == [true, false])
    #expect(
      changed.last?["body"]?["breakpoint"]?["message"]?.stringValue?.contains(
        "No step of the recording was sent from TodosView.swift:\(addLine + 1)") == true)
    #expect(self.success(client.request("configurationDone")))
    #expect(client.event("stopped")?["body"]?["reason"] == "entry")

    // Continue: the first step sent from that line, its call site on top.
    #expect(self.success(client.request("continue", ["threadId": 1])))
    let first = try #require(client.event("stopped"))
    #expect(first["body"]?["reason"] == "breakpoint")
    let trace = client.request("stackTrace", ["threadId": 1])
    let top = try #require(trace.response?["body"]?["stackFrames"]?[0])
    #expect(top["source"]?["path"] == .string(Self.todosView))
    #expect(top["line"] == .integer(Int64(addLine)))
    #expect(top["name"]?.stringValue?.hasSuffix("Todos.Action.addTodoButtonTapped") == true)
    let firstStep = try #require(top["id"]?.intValue) - 1

    // The state's variables: the todos, paged.
    let scopes = client.request("scopes", ["frameId": top["id"]!])
    let state = try #require(scopes.response?["body"]?["scopes"]?[0])
    #expect(state["name"]?.stringValue?.hasPrefix("State after step \(firstStep)") == true)
    let variables = client.request(
      "variables", ["variablesReference": state["variablesReference"]!])
    let todos = try #require(
      variables.response?["body"]?["variables"].flatMap { list -> JSONValue? in
        guard case let .array(entries) = list else { return nil }
        return entries.first { $0["name"] == "todos" }
      })
    #expect(todos["indexedVariables"] == 1)
    let elements = client.request(
      "variables",
      [
        "variablesReference": todos["variablesReference"]!, "filter": "indexed", "start": 0,
        "count": 1,
      ])
    #expect(elements.response?["body"]?["variables"]?[0]?["name"] == "[0]")

    // Forward to the next, then back: one step, then the breakpoint before.
    #expect(self.success(client.request("continue", ["threadId": 1])))
    let second = try #require(client.event("stopped"))
    #expect(second["body"]?["reason"] == "breakpoint")
    let secondStep =
      try #require(
        client.request("stackTrace", ["threadId": 1]).response?["body"]?["stackFrames"]?[0]?["id"]?
          .intValue) - 1
    #expect(secondStep > firstStep)
    #expect(self.success(client.request("stepBack", ["threadId": 1])))
    #expect(client.event("stopped")?["body"]?["reason"] == "step")
    #expect(self.position(client) == secondStep - 1)
    #expect(self.success(client.request("reverseContinue", ["threadId": 1])))
    #expect(client.event("stopped")?["body"]?["reason"] == "breakpoint")
    #expect(self.position(client) == firstStep)

    // A data breakpoint on the first todo's completion: continue stops where it changes.
    #expect(
      self.success(
        client.request(
          "setBreakpoints", ["source": ["path": .string(Self.todosView)], "breakpoints": []])))
    let info = client.request("dataBreakpointInfo", ["name": "todos[0].isComplete"])
    let dataId = try #require(info.response?["body"]?["dataId"])
    #expect(dataId == "todos[0].isComplete")
    #expect(
      self.success(client.request("setDataBreakpoints", ["breakpoints": [["dataId": dataId]]])))
    let before = client.request(
      "evaluate", ["expression": "todos[0].isComplete", "context": "hover"])
    #expect(self.success(client.request("continue", ["threadId": 1])))
    let changedAt = try #require(client.event("stopped"))
    #expect(changedAt["body"]?["reason"] == "data breakpoint")
    let after = client.request(
      "evaluate", ["expression": "todos[0].isComplete", "context": "watch"])
    #expect(before.response?["body"]?["result"] != after.response?["body"]?["result"])
    #expect(
      changedAt["body"]?["description"]?.stringValue?.hasPrefix("todos[0].isComplete: ") == true)

    // The debug console runs the REPL's commands.
    let count = client.request("evaluate", ["expression": "print todos.count", "context": "repl"])
    let stateCount = client.request("evaluate", ["expression": "todos.count", "context": "watch"])
    #expect(count.response?["body"]?["result"] == stateCount.response?["body"]?["result"])
    #expect(count.response?["body"]?["result"]?.stringValue.flatMap(Int.init) != nil)

    // The end stops there, and says so.
    #expect(self.success(client.request("setDataBreakpoints", ["breakpoints": []])))
    let end = client.request("continue", ["threadId": 1])
    #expect(self.success(end))
    let atEnd = try #require(client.event("stopped"))
    #expect(atEnd["body"]?["text"] == "end")
    #expect(self.success(client.request("next", ["threadId": 1])))
    #expect(client.event("stopped")?["body"]?["text"] == "end")

    #expect(self.success(client.request("disconnect")))
    #expect(client.exitStatus() == 0)
  }

  /// The current step, as the top frame says.
  func position(_ client: DAPClient) -> Int? {
    client.request("stackTrace", ["threadId": 1]).response?["body"]?["stackFrames"]?[0]?["id"]?
      .intValue.map { $0 - 1 }
  }

  @Test func badInputIsAnsweredWithAnErrorAndTheSessionGoesOn() throws {
    let client = try self.client()
    func failure(_ answer: (response: JSONValue?, events: [JSONValue])) -> String? {
      guard answer.response?["success"] == .bool(false) else { return nil }
      return answer.response?["message"]?.stringValue
    }
    #expect(self.success(client.request("initialize")))
    // Before launch.
    #expect(failure(client.request("stackTrace", ["threadId": 1]))?.contains("launch") == true)
    // A recording that does not open.
    #expect(
      failure(client.request("launch", ["recording": "Recordings/missing.actionlog"]))?
        .contains("missing.actionlog") == true)
    #expect(failure(client.request("launch", ["recording": 3]))?.contains("not a string") == true)
    // A header without its length, then a body that is not JSON.
    client.write(Array("Content-Type: json\r\n\r\n".utf8))
    let header = try #require(client.next())
    #expect(header["success"] == false)
    #expect(header["message"]?.stringValue?.contains("without Content-Length") == true)
    client.write(Array("Content-Length: 5\r\n\r\nhello".utf8))
    let notJSON = try #require(client.next())
    #expect(notJSON["message"]?.stringValue?.contains("not JSON") == true)
    client.write(Array("Content-Length: twelve\r\n\r\n".utf8))
    #expect(client.next()?["message"]?.stringValue?.contains("not a number of bytes") == true)
    // An unknown command; arguments of the wrong type.
    #expect(failure(client.request("fly"))?.contains("\"fly\" is not a request") == true)
    #expect(self.success(client.request("launch", ["recording": "Recordings/todos.actionlog"])))
    #expect(
      failure(
        client.request("setBreakpoints", ["source": ["path": "x.swift"], "breakpoints": "all"]))?
        .contains("is a string, not an array") == true)
    #expect(
      failure(client.request("variables", ["variablesReference": "one"]))?
        .contains("not a whole number") == true)
    #expect(
      failure(client.request("variables", ["variablesReference": 999]))?.contains("999") == true)
    #expect(
      failure(client.request("evaluate", ["expression": "todos[", "context": "hover"])) != nil)
    #expect(failure(client.request("evaluate", ["expression": "teleport 3"])) != nil)
    #expect(failure(client.request("scopes", ["frameId": 100_000])) != nil)

    // Still working.
    #expect(self.success(client.request("configurationDone")))
    #expect(client.event("stopped")?["body"]?["reason"] == "entry")
    #expect(self.success(client.request("next", ["threadId": 1])))
    #expect(client.event("stopped")?["body"]?["reason"] == "step")
    #expect(self.position(client) == 1)
    #expect(self.success(client.request("disconnect")))
    #expect(client.exitStatus() == 0)
  }

  @Test func conditionsHitCountsAndLogMessages() throws {
    let client = try self.client()
    _ = client.request("initialize")
    _ = client.request(
      "launch", ["recording": "Recordings/todos.actionlog", "sourceRoot": .string(Self.root.path)])
    _ = client.request("configurationDone")
    _ = client.event("stopped")
    let addLine = try Self.line(sending: ".addTodoButtonTapped")
    // The third todo added, by a condition and by a hit count; a log message does not stop.
    let set = client.request(
      "setBreakpoints",
      [
        "source": ["path": .string(Self.todosView)],
        "breakpoints": [["line": .integer(Int64(addLine)), "condition": "todos.count == 3"]],
      ])
    #expect(set.response?["body"]?["breakpoints"]?[0]?["verified"] == true)
    _ = client.request("continue", ["threadId": 1])
    _ = client.event("stopped")
    #expect(
      client.request("evaluate", ["expression": "todos.count", "context": "watch"])
        .response?["body"]?["result"] == "3")
    let byCondition = self.position(client)
    _ = client.request("restart")
    _ = client.event("stopped")
    _ = client.request(
      "setBreakpoints",
      [
        "source": ["path": .string(Self.todosView)],
        "breakpoints": [["line": .integer(Int64(addLine)), "hitCondition": "3"]],
      ])
    _ = client.request("continue", ["threadId": 1])
    _ = client.event("stopped")
    #expect(self.position(client) == byCondition)
    _ = client.request("restart")
    _ = client.event("stopped")
    _ = client.request(
      "setBreakpoints",
      [
        "source": ["path": .string(Self.todosView)],
        "breakpoints": [["line": .integer(Int64(addLine)), "logMessage": "{todos.count} todos"]],
      ])
    let logged = client.request("continue", ["threadId": 1])
    let outputs = logged.events + [client.event("stopped")].compactMap { $0 }
    _ = outputs
    let lines = client.received.compactMap { message -> String? in
      guard message["event"] == "output" else { return nil }
      return message["body"]?["output"]?.stringValue
    }
    #expect(lines.contains { $0.hasSuffix(": 1 todos\n") }, "\(lines)")
    #expect(client.received.last?["body"]?["text"] == "end")
    _ = client.request("disconnect")
  }

  /// The VS Code extension in `Tools/editors/vscode`, loaded by Node with a stand-in for VS
  /// Code's API: the command line it gives VS Code starts an adapter that steps.
  @Test(.enabled(if: programURL("node") != nil, "Node is not installed"))
  func theVSCodeExtensionStartsTheAdapter() async throws {
    let replay = try #require(productURL("replay"))
    let result = try await run(
      "node",
      [
        Self.root.appendingPathComponent(
          "Tests/ReplayCommandTests/Support/vscode_extension_check.js"
        )
        .path,
        Self.root.appendingPathComponent("Tools/editors/vscode").path, replay.path,
        Self.root.appendingPathComponent("Recordings/todos.actionlog").path, Self.root.path,
      ], in: Self.root, isProduct: false)
    #expect(result.status == 0, "\(result.all)")
    let facts = try JSONValue.parse(Array(result.output.utf8))
    #expect(facts["type"] == "composable-replay")
    #expect(facts["args"] == ["dap"])
    #expect(facts["status"] == 0)
    #expect(facts["stopped"] == ["entry", "step"])
    #expect(facts["topFrame"]?["source"]?["path"] == .string(Self.todosView))
    guard case let .array(responses)? = facts["responses"] else {
      Issue.record("no responses: \(result.all)")
      return
    }
    #expect(responses.count == 6)
    #expect(responses.allSatisfy { $0[1] == true }, "\(responses)")
  }
}
