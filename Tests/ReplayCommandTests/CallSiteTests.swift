import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// Where each action came from: the line of the `send` in the feature's code, and of the
/// effect that fed an action back, recorded once per line and shown by `replay`.
@Suite struct CallSiteTests {
  static let root = packageRoot

  /// The line of `Sources/ExampleFeatures/Todos/FILE` that holds `text`, as the compiler numbers
  /// it: the test follows the code wherever it moves.
  static func line(of text: String, in file: String) throws -> Int {
    let source = try String(
      contentsOf: root.appendingPathComponent("Sources/ExampleFeatures/Todos/\(file)"),
      encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let matches = lines.indices.filter { lines[$0].contains(text) }
    try #require(matches.count == 1, "\(file) holds \"\(text)\" once")
    return matches[0] + 1
  }

  /// Adds a to-do, types into it and ticks it through the todos screen's controls, as the
  /// example app does; a second later the list re-sorts, fed back by an effect.
  @MainActor
  static func record(to url: URL) async throws -> Int {
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: Todos.State(), checkpointInterval: 2)
    let store = Store(initialState: Todos.State()) {
      Todos().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    let view = TodosView(store: store)
    view.addButtonTapped()
    let id = try #require(store.todos.first?.id)
    for text in ["M", "Mi", "Mil", "Milk"] {
      view.row(id).textChanged(text)
    }
    await view.row(id).checkBoxTapped().finish()
    try recorder.close()
    return recorder.count
  }

  @Test func theREPLSaysWhichLineSentEachActionAndWhichEffectFedItBack() async throws {
    let directory = TemporaryDirectory()
    let file = directory.file("todos.actionlog")
    let count = try await Self.record(to: file)
    #expect(count == 7)
    let add = try Self.line(of: "store.send(.addTodoButtonTapped)", in: "TodosView.swift")
    let type = try Self.line(of: "action: .textFieldChanged(text)", in: "TodosView.swift")
    let tick = try Self.line(of: "action: .checkBoxToggled)", in: "TodosView.swift")
    let effect = try Self.line(of: "return .run { send in", in: "Todos.swift")

    let result = try await run(
      "replay", [file.path], input: "goto 1\ngoto 7\ninfo\nlist\neffects 6\n", in: Self.root)
    #expect(result.status == 0, "\(result.all)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("1/7  +") == true)
    #expect(
      lines.first?.hasSuffix(
        "  send at TodosView.swift:\(add)  Todos.Action.addTodoButtonTapped") == true,
      "\(result.output)")
    #expect(
      lines.dropFirst().first?.hasSuffix(
        "  effect ← 6 at Todos.swift:\(effect)  Todos.Action.sortCompleted") == true,
      "\(result.output)")
    // `info` names the module too.
    #expect(
      lines.contains(
        "Step 7 was fed back by an effect of step 6, made at ExampleFeatures/Todos.swift:\(effect)."
      ),
      "\(result.output)")
    // `list` and `effects` show the line in a column of its own.
    let typed = (2...5).map { ($0, "TodosView.swift:\(type)") }
    for (step, site) in [(1, "TodosView.swift:\(add)")] + typed {
      #expect(
        lines.contains { $0.hasPrefix("  \(step)  +") && $0.contains("  \(site)  Todos.Action") },
        "\(result.output)")
    }
    #expect(
      lines.contains { $0.contains("send          TodosView.swift:\(tick)  Todos.Action.todos(") },
      "\(result.output)")
    #expect(
      lines.contains { $0.contains("effect ← 6    Todos.swift:\(effect)  ") }, "\(result.output)")

    // Each line is written once, however many actions it sent; an action sent from the line
    // of the one before it says so by leaving `via` out, except after a checkpoint (every two
    // actions here), where a reader stops looking back.
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.components(separatedBy: #""kind":"site""#).count - 1 == 4)
    let records = text.split(separator: "\n").map { $0.dropFirst(9) }
    let actions = records.indices.filter { records[$0].hasPrefix(#"{"kind":"action""#) }
    let named = actions.filter { records[$0].contains(#","via":"#) }
    #expect(named.count < actions.count)
    for index in actions where records[index - 1].hasPrefix(#"{"kind":"checkpoint""#) {
      #expect(named.contains(index), "\(records[index])")
    }
    let recording = try Recording(contentsOf: file)
    let view = "ExampleFeatures/TodosView.swift"
    #expect(
      (1...7).map { recording.site(ofAction: $0)?.qualifiedDescription }
        == ["\(view):\(add)"] + Array(repeating: "\(view):\(type)", count: 4) + [
          "\(view):\(tick)", "ExampleFeatures/Todos.swift:\(effect)",
        ])
    // Read out of order, each answer is the same.
    #expect(
      [5, 2, 7, 3, 1].map { recording.site(ofAction: $0)?.line }
        == [type, type, effect, type, add].map { UInt($0) })
  }

  /// Sites are information: a recording whose site records name other lines (the code moved)
  /// verifies as before, and one without them opens and verifies too.
  @Test func verifyNeverComparesSites() async throws {
    let directory = TemporaryDirectory()
    let text = try String(contentsOf: bundledRecording("todos"), encoding: .utf8)
    var moved = Data()
    var without = Data()
    for line in text.split(separator: "\n") {
      let payload = String(line.dropFirst(9))
      if payload.hasPrefix(#"{"kind":"site""#) {
        moved += framedLine(
          payload.replacingOccurrences(of: "TodosView.swift:", with: "Elsewhere.swift:1"))
      } else {
        moved += framedLine(payload)
        without += framedLine(payload)
      }
    }
    try moved.write(to: directory.file("moved.actionlog"))
    try without.write(to: directory.file("without.actionlog"))
    for name in ["moved", "without"] {
      let verified = try await run(
        "replay", ["verify", directory.file("\(name).actionlog").path], in: Self.root)
      #expect(verified.status == 0, "\(name): \(verified.all)")
    }
    let listed = try await run(
      "replay", ["list", directory.file("moved.actionlog").path, "--to", "1"], in: Self.root)
    #expect(listed.output.contains("Elsewhere.swift:119  Todos.Action.addTodoButtonTapped"))
    let info = try await run(
      "replay", ["info", directory.file("without.actionlog").path], in: Self.root)
    #expect(info.output.contains("  sent from    not recorded"), "\(info.output)")
  }

  /// An export that cuts, a shrink that leaves actions out, and a join of a rolling recording's
  /// segments keep each action's site.
  @Test func cutsShrinksAndJoinsKeepEachActionsSite() throws {
    let directory = TemporaryDirectory()
    let todos = try Recording(contentsOf: bundledRecording("todos"))
    // Cut at a checkpoint, and in the middle of a run of actions from one line.
    for after in [100, 3] {
      let cut = try todos.export(
        to: directory.file("cut-\(after).actionlog"),
        options: ExportOptions(cut: .init(after: after)))
      #expect(cut.actions == todos.count - after)
      let reread = try Recording(contentsOf: directory.file("cut-\(after).actionlog"))
      #expect(
        (1...reread.count).map { reread.site(ofAction: $0) }
          == ((after + 1)...todos.count).map { todos.site(ofAction: $0) })
      #expect((1...reread.count).allSatisfy { reread.site(ofAction: $0) != nil })
    }

    let subset = [1, 3, 4, 117, 118, 139]
    _ = try todos.export(
      to: directory.file("subset.actionlog"),
      options: ExportOptions(subset: .init(actions: subset)))
    let shrunk = try Recording(contentsOf: directory.file("subset.actionlog"))
    #expect(
      (1...shrunk.count).map { shrunk.site(ofAction: $0) }
        == subset.map { todos.site(ofAction: $0) }
    )

    let folder = recordingsFolder.appendingPathComponent("field")
    let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .filter { $0.hasSuffix(".actionlog") }
      .map { try Recording(contentsOf: folder.appendingPathComponent($0)) }
    #expect(segments.count > 1)
    let (joined, leftOut) = try Recording.joining(segments)
    let kept = segments[leftOut...]
    let separate = kept.flatMap { segment in (1...segment.count).map { segment.site(ofAction: $0) }
    }
    #expect((1...joined.count).map { joined.site(ofAction: $0) } == separate)
    #expect(separate.allSatisfy { $0 != nil })
  }
}
