import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
@_spi(Benchmarks) import ReplayREPL
import TimeTravel

extension ReplayBench {
  // The debugger against the REPL on the same work: `continue` to a data breakpoint far away
  // against `watch` and `continue`, and the first page of a big state's variables against
  // `print` of that state. Each in alternating rounds, medians.

  @MainActor
  static func debugAdapter(scratch: URL, distance: Int, todos: Int, rounds: Int) throws {
    print(
      "The debugger (replay dap) against the REPL (median of \(rounds) alternating rounds)")
    let features = [ReplayFeature("todos") { Todos() }]

    // A value that changes once, `distance` steps after the start.
    var script: [Todos.Action] = Array(repeating: .addTodoButtonTapped, count: 50)
    let ids = (0..<50).map { UUID($0) }
    for step in 0..<distance - 1 {
      script.append(
        .todos(.element(id: ids[1 + step % 49], action: .textFieldChanged("item \(step)"))))
    }
    script.append(.todos(.element(id: ids[0], action: .checkBoxToggled)))
    let farURL = scratch.appendingPathComponent("dap-far.actionlog")
    try self.record(Todos(), Todos.State(), script, to: farURL)
    let path = "todos[49].isComplete"

    var dapTimes: [Duration] = []
    var replTimes: [Duration] = []
    var stops: (dap: String, repl: String) = ("", "")
    for round in 0..<rounds {
      for isDAP in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        if isDAP {
          let driver = DebugAdapterDriver(features: features)
          _ = driver.request("initialize")
          _ = driver.request("launch", ["recording": .string(farURL.path)])
          _ = driver.request("configurationDone")
          _ = driver.request("goto", ["targetId": 50])
          _ = driver.request("setDataBreakpoints", ["breakpoints": [["dataId": .string(path)]]])
          let start = ContinuousClock.now
          let messages = driver.request("continue", ["threadId": 1])
          dapTimes.append(ContinuousClock.now - start)
          if case let .string(text)? = messages.last?["body"]?["description"] { stops.dap = text }
        } else {
          let driver = try InterpreterDriver(recording: farURL, features: features)
          _ = driver.run("goto 50")
          let start = ContinuousClock.now
          _ = driver.run("watch \(path)")
          let shown = driver.run("continue")
          replTimes.append(ContinuousClock.now - start)
          stops.repl = shown.split(separator: "\n").last.map(String.init) ?? "?"
        }
      }
    }
    let ratios = zip(dapTimes, replTimes).map { $0 / $1 }
    print("  a data breakpoint \(distance) steps away (\(path))")
    self.row("REPL watch + continue", median(replTimes), per: distance)
    self.row("dap continue", median(dapTimes), per: distance)
    self.ratio(
      median(ratios), goal: "≤ 1.2× the REPL's watch + continue", met: median(ratios) <= 1.2,
      note: rangeOfRounds(ratios))
    print("  stopped at: dap \(stops.dap); REPL \(stops.repl)")

    // A state of `todos` todos, stopped at its last step.
    let bigURL = scratch.appendingPathComponent("dap-big.actionlog")
    try self.record(
      Todos(), Todos.State(), Array(repeating: .addTodoButtonTapped, count: todos), to: bigURL)
    var pageTimes: [Duration] = []
    var printTimes: [Duration] = []
    for round in 0..<rounds {
      for isDAP in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        if isDAP {
          let driver = DebugAdapterDriver(features: features)
          _ = driver.request("initialize")
          _ = driver.request("launch", ["recording": .string(bigURL.path)])
          _ = driver.request("configurationDone")
          _ = driver.request("goto", ["targetId": .integer(Int64(todos))])
          let start = ContinuousClock.now
          let scopes = driver.request("scopes", ["frameId": .integer(Int64(todos + 1))])
          let state = scopes.last?["body"]?["scopes"]?[0]?["variablesReference"] ?? 0
          let variables = driver.request("variables", ["variablesReference": state])
          var list: [JSONValue] = []
          if case let .array(found)? = variables.last?["body"]?["variables"] { list = found }
          let reference = list.first { $0["name"] == "todos" }?["variablesReference"] ?? 0
          _ = driver.request(
            "variables",
            ["variablesReference": reference, "filter": "indexed", "start": 0, "count": 100])
          pageTimes.append(ContinuousClock.now - start)
        } else {
          let driver = try InterpreterDriver(recording: bigURL, features: features)
          _ = driver.run("goto \(todos)")
          let start = ContinuousClock.now
          _ = driver.run("print")
          printTimes.append(ContinuousClock.now - start)
        }
      }
    }
    let pageRatios = zip(pageTimes, printTimes).map { $0 / $1 }
    print("  the first page of a \(todos)-todo state's variables (state, then 100 todos)")
    self.row("REPL print", median(printTimes), per: todos)
    self.row("dap scopes + variables", median(pageTimes), per: todos)
    self.ratio(
      median(pageRatios), goal: "≤ 1× the REPL's print", met: median(pageRatios) <= 1,
      note: rangeOfRounds(pageRatios))
    print()
  }
}

extension JSONValue {
  fileprivate subscript(index: Int) -> JSONValue? {
    guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}
