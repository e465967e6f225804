import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TestSupport
import Testing
import TimeTravel

/// `replay export`: bug-report attachments.
@Suite struct ExportTests {
  static let root = ReplayCommandTests.root
  static let todos = root.appendingPathComponent("Recordings/todos.actionlog")

  @Test func anAttachmentWithMetadataRedactionAndTheLastActions() async throws {
    let directory = TemporaryDirectory()
    let output = directory.file("bug.actionlog")
    let result = try await run(
      "replay",
      [
        "export", "Recordings/todos.actionlog", "-o", output.path,
        "--description", "The list jumps when I tick two todos", "--app-version", "1.4.2",
        "--os", "iOS 18.1", "--redact-state", "todos[*].description",
        "--redact-action", "**.textFieldChanged", "--last", "40",
      ],
      in: Self.root
    )
    #expect(
      result
        == ProcessResult(
          status: 0,
          output: """
            Wrote \(output.path): 40 actions (steps 100–139 of 139)
              size       17939 bytes
              metadata   app=ExampleFeatures, appVersion=1.4.2, cutFrom=actions 100–139 of 139, \
            recorded from 2025-11-22T02:53:20.000Z, description=The list jumps when I tick two \
            todos, os=iOS 18.1, session=Tools/record-samples
              redacted   state todos[*].description; actions **.textFieldChanged (shown as \
            ‹redacted N›)
              this time  36 values redacted
              integrity  51 records, every checksum and the header checked; complete

            """,
          errors: ""
        )
    )
    let bytes = try String(contentsOf: output, encoding: .utf8)
    for chore in ["Buy milk", "Walk the dog", "Call Mum", "Water the plants", "Bake bread"] {
      #expect(!bytes.contains(chore))
    }
    let integrity = try await run("replay", ["verify", "--integrity", output.path], in: Self.root)
    #expect(integrity.status == 0)
    let verify = try await run("replay", ["verify", output.path], in: Self.root)
    #expect(
      verify.output
        == "bug.actionlog: today's reducer reproduces every step of 40 actions.\n")
  }

  @Test func aCutRecordingReplaysTheSameStatesAsTheOriginal() async throws {
    let directory = TemporaryDirectory()
    let output = directory.file("last.actionlog")
    let result = try await run(
      "replay",
      ["export", "Recordings/todos.actionlog", "-o", output.path, "--last", "45", "--os", "Linux"],
      in: Self.root
    )
    #expect(result.status == 0, "\(result.errors)")
    let original = try Recording(contentsOf: Self.todos)
    let cut = try Recording(contentsOf: output)
    #expect(cut.count == 45)
    #expect(cut.ending == .clean)
    #expect(
      abs(cut.header.startedAt.timeIntervalSince(original.header.startedAt) - 94 * 0.35) < 0.001,
      "the start moves to the cut"
    )
    let offset = original.count - 45
    let originalTimeline = try Timeline(recording: original, reducer: Todos(), feature: "todos")
    let cutTimeline = try Timeline(recording: cut, reducer: Todos(), feature: "todos")
    for step in 0...45 {
      if step > 0 {
        let action = try cut.action(step, as: Todos.Action.self)
        let source = try original.action(step + offset, as: Todos.Action.self)
        #expect(action.action == source.action)
        #expect(action.time == source.time - original.time(ofAction: offset))
        switch (action.origin, source.origin) {
        case (.send, .send): break
        case let (.effect(parent), .effect(sourceParent)):
          #expect(parent == sourceParent - offset)
        case (.send, .effect), (.effect, .send):
          Issue.record("step \(step): \(action.origin) for \(source.origin)")
        }
      }
      try cutTimeline.goto(step)
      try originalTimeline.goto(step + offset)
      #expect(cutTimeline.state == originalTimeline.state, "step \(step)")
    }
  }

  @Test func aSizeLimitKeepsTheLastActionsThatFit() async throws {
    let directory = TemporaryDirectory()
    let output = directory.file("small.actionlog")
    let result = try await run(
      "replay",
      [
        "export", "Recordings/todos.actionlog", "-o", output.path, "--max-size", "8KB", "--os",
        "Linux",
      ],
      in: Self.root
    )
    #expect(result.status == 0, "\(result.errors)")
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int)
    #expect(size <= 8_000)
    #expect(size > 4_000, "the limit is used, not wasted")
    let cut = try Recording(contentsOf: output)
    #expect(cut.count > 10 && cut.count < 139)
    #expect(
      result.output.hasPrefix(
        "Wrote \(output.path): \(cut.count) actions (steps \(140 - cut.count)–139 of 139)\n"))
  }

  /// Exports the last actions of a five-action recording of a feature `replay` lacks, with a
  /// checkpoint every two actions.
  @MainActor
  private func exportThermostat(last: Int) async throws -> (ProcessResult, Recording) {
    let directory = TemporaryDirectory()
    let file = directory.file("thermostat.actionlog")
    try Thermostat.record(to: file, feature: "thermostat")
    let output = directory.file("out.actionlog")
    let result = try await run(
      "replay", ["export", file.path, "-o", output.path, "--last", "\(last)", "--os", "Linux"],
      in: Self.root
    )
    #expect(result.status == 0)
    return (result, try Recording(contentsOf: output))
  }

  @MainActor
  @Test func aFeatureThisReplayLacksIsCutAtARecordedCheckpoint() async throws {
    let (result, cut) = try await self.exportThermostat(last: 2)
    #expect(
      result.errors == """
        note: the cut is at the checkpoint after step 2, the nearest before step 3: this replay \
        cannot re-run "thermostat" to start exactly there.

        """
    )
    #expect(cut.count == 3)
    #expect(try cut.initialState(as: Thermostat.State.self) == Thermostat.State(target: 22))
    #expect(try cut.checkpoint(after: 3, as: Thermostat.State.self) == Thermostat.State(target: 23))
  }

  @MainActor
  @Test func withNoCheckpointBeforeTheCutEveryActionIsKept() async throws {
    let (result, exported) = try await self.exportThermostat(last: 4)
    #expect(
      result.errors == """
        note: every action is kept: there is no recorded checkpoint before step 2, and this \
        replay cannot re-run "thermostat" to start there.

        """
    )
    #expect(exported.count == 5)
  }

  @Test func noActionsLeftStartFromTheLastState() async throws {
    let directory = TemporaryDirectory()
    let output = directory.file("none.actionlog")
    let result = try await run(
      "replay",
      [
        "export", "Recordings/counter.actionlog", "-o", output.path, "--last", "0", "--os", "Linux",
      ],
      in: Self.root
    )
    #expect(
      result.output.hasPrefix(
        "Wrote \(output.path): 0 actions (from the state after step 118, the last of 118)\n"))
    let exported = try Recording(contentsOf: output)
    let original = try Recording(
      contentsOf: Self.root.appendingPathComponent("Recordings/counter.actionlog"))
    #expect(exported.count == 0)
    #expect(
      exported.header.metadata["cutFrom"] == "none of 118, recorded from 2025-11-22T02:53:20.000Z")
    #expect(
      try exported.initialState(as: CounterFeature.State.self)
        == original.checkpoint(after: 118, as: CounterFeature.State.self)
    )
  }

  @Test func aRecordingCutShortIsExportedUpToItsLastWholeRecord() async throws {
    let directory = TemporaryDirectory()
    let torn = directory.file("torn.actionlog")
    let bytes = try Data(
      contentsOf: Self.root.appendingPathComponent("Recordings/counter.actionlog"))
    try bytes.prefix(bytes.count / 2).write(to: torn)
    let original = try Recording(contentsOf: torn)
    let output = directory.file("out.actionlog")
    let result = try await run(
      "replay", ["export", torn.path, "-o", output.path, "--os", "Linux"], in: Self.root)
    #expect(result.status == 0)
    #expect(result.errors.hasPrefix("warning: the recording is cut short: the last "))
    #expect(result.output.contains("integrity  "))
    #expect(result.output.contains("cut short: no end record (the recorder did not close it)"))
    let exported = try Recording(contentsOf: output)
    #expect(exported.count == original.count)
    #expect(exported.ending == .unterminated)
    for step in 1...original.count {
      #expect(
        try exported.action(step, as: CounterFeature.Action.self)
          == original.action(step, as: CounterFeature.Action.self)
      )
    }
  }

  @Test func badRequestsChangeNothing() async throws {
    let directory = TemporaryDirectory()
    let existing = directory.file("existing.actionlog")
    try Data("keep me".utf8).write(to: existing)
    let cases: [([String], String)] = [
      (
        ["-o", existing.path],
        "replay: \(existing.path) exists: give --force to replace it.\n"
      ),
      (
        ["-o", directory.file("a.actionlog").path, "--redact-state", "todos[x]"],
        "replay: The redaction path \"todos[x]\" is not valid at character 7: an index is a "
          + "number or *, not \"x\". Write paths as todos[*].title, user.email or **.password.\n"
      ),
      (
        ["-o", directory.file("b.actionlog").path, "--max-size", "lots"],
        "replay: --max-size takes a size such as 5MB, 512K or 100000: not \"lots\".\n"
      ),
      (
        ["-o", directory.file("c.actionlog").path, "--last=-3"],
        "replay: --last takes a number of actions, 0 or more: not -3.\n"
      ),
      (
        ["-o", "Recordings/todos.actionlog"],
        "replay: -o names the recording itself: write the attachment elsewhere.\n"
      ),
    ]
    for (arguments, message) in cases {
      let result = try await run(
        "replay", ["export", "Recordings/todos.actionlog"] + arguments, in: Self.root
      )
      #expect(result == ProcessResult(status: 2, output: "", errors: message))
    }
    #expect(try String(contentsOf: existing, encoding: .utf8) == "keep me")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [
        "existing.actionlog"
      ])
  }

  @Test func everyStepsStateAsJSONLinesForOtherTools() async throws {
    let directory = TemporaryDirectory()
    let output = directory.file("states.jsonl")
    let result = try await run(
      "replay", ["export", "Recordings/counter.actionlog", "-o", output.path, "--states"],
      in: Self.root)
    #expect(result.status == 0, "\(result)")
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
    let recording = try Recording(contentsOf: bundledRecording("counter"))
    #expect(lines.count == recording.count + 1)
    // Each line is the state a replay computes after that step.
    struct Line: Decodable {
      let state: CounterFeature.State
      let step: Int
      let time: Int64
    }
    let replayer = Replayer(recording: recording, reducer: CounterFeature())
    var state = try replayer.initialState()
    for (step, text) in lines.enumerated() {
      let line = try JSONDecoder().decode(Line.self, from: Data(text.utf8))
      if step > 0 { try replayer.apply(step, to: &state) }
      #expect(line.step == step)
      #expect(line.state == state, "step \(step)")
    }
    // A recording made before step updates has no state between its checkpoints: it says so.
    let legacy = try await run(
      "replay",
      [
        "export", "Recordings/legacy/todos-v1.actionlog", "-o", directory.file("l.jsonl").path,
        "--states",
      ],
      in: Self.root)
    #expect(legacy.status == 1)
    #expect(legacy.errors.contains("the recording has no step updates"), "\(legacy)")
    #expect(!FileManager.default.fileExists(atPath: directory.file("l.jsonl").path))
  }
}
