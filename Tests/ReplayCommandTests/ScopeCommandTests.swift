import Foundation
import TestSupport
import Testing

/// One child feature out of an app's recording: `replay export --scope` and the REPL's `scope`.
@Suite struct ScopeCommandTests {
  static let root = packageRoot

  @Test func exportWritesAChildsRecordingThatReplaysWithItsReducer() async throws {
    let directory = TemporaryDirectory()
    let child = directory.file("grace.actionlog")
    let made = try await run(
      "replay",
      [
        "export", "Recordings/contacts.actionlog", "--scope", "path[id: 1].detail", "-o",
        child.path,
      ], in: Self.root)
    #expect(made.status == 0, "\(made.all)")
    #expect(
      made.output.hasPrefix(
        """
        Wrote \(child.path): 10 actions of path[id: 1].detail, feature "contactDetail" \
        (ExampleContactDetail.ContactDetail.State)
          from       the state after app step 17; its actions are app steps 18-25, 27-28
          inputs     1 write of the rest of the app to its state (app step 26), applied before \
        the next step
          ended      popped at app step 29, cancelling the features at path[#1]
        """))
    let verified = try await run("replay", ["verify", child.path], in: Self.root)
    #expect(verified.status == 0, "\(verified.all)")
    #expect(verified.output.contains("today's reducer reproduces every step of 10 actions"))
    let info = try await run("replay", ["info", child.path], in: Self.root)
    #expect(info.output.contains("path[id: 1].detail"), "\(info.all)")

    // The same screen by its place on the stack: its first presentation, or the one asked for.
    let byIndex = directory.file("first.actionlog")
    let first = try await run(
      "replay",
      [
        "export", "Recordings/contacts.actionlog", "--scope", "path[0].detail",
        "--presentation", "2", "-o", byIndex.path,
      ], in: Self.root)
    #expect(first.status == 0, "\(first.all)")
    #expect(first.output.contains("10 actions of path[id: 1].detail"), "\(first.all)")
    #expect(first.output.contains("presented  5 times"), "\(first.all)")
  }

  @Test func forceReplacesAnExportAndLosesNothingOnTheWay() async throws {
    let directory = TemporaryDirectory()
    for arguments in [["--scope", "path[id: 1].detail"], []] {
      let out = directory.file("again.actionlog")
      try? FileManager.default.removeItem(at: out)
      for force in [[], ["--force"]] {
        let result = try await run(
          "replay",
          ["export", "Recordings/contacts.actionlog", "-o", out.path] + arguments + force,
          in: Self.root)
        #expect(result.status == 0, "\(arguments + force): \(result.all)")
      }
      let verified = try await run("replay", ["verify", out.path], in: Self.root)
      #expect(verified.status == 0, "\(arguments): \(verified.all)")
      let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      #expect(!left.contains { $0.hasSuffix(".export") }, "\(left)")
    }
  }

  @Test func whatCannotBeCutIsSaidAndNothingIsWritten() async throws {
    let directory = TemporaryDirectory()
    let out = directory.file("child.actionlog")
    for (arguments, message) in [
      (
        ["--scope", "path[id: 9].detail"],
        "no step's state has path[id: 9].detail; the state has contacts, path."
      ),
      (
        ["--scope", "path[0].detail", "--presentation", "6"],
        "there is no presentation 6 of path[0].detail: it is presented 5 times"
      ),
      (
        ["--scope", "path[0].detail", "--from", "0"],
        "path[0].detail is not in the state after step 0; it is there in steps 1–"
      ),
      (["--scope", "path[0].detail", "--last", "3"], "it takes no --last"),
      (["--scope", "path[0]]"], "is not a state path"),
      (["--from", "3"], "--from go with --scope PATH"),
    ] {
      let result = try await run(
        "replay", ["export", "Recordings/contacts.actionlog", "-o", out.path] + arguments,
        in: Self.root)
      #expect(result.status != 0, "\(arguments): \(result.all)")
      #expect(result.errors.contains(message), "\(arguments): \(result.all)")
      #expect(!FileManager.default.fileExists(atPath: out.path))
    }
  }

  @Test func theREPLNarrowsASessionToAChildAndBack() async throws {
    let result = try await run(
      "replay", ["Recordings/contacts.actionlog"],
      input: [
        "goto 20", "scope path[id: 1].detail", "print name", "goto 9", "watch hasChanges",
        "first", "continue", "scope", "scope",
      ].joined(separator: "\n") + "\n", in: Self.root)
    #expect(
      result.output
        == """
        20/55  +7.000s  send at RecordSamples.swift:425  Contacts.Action.path(.element(id: #1, \
        action: .detail(.binding(.set(\\.phone, "555")))))
        Scoped to path[id: 1].detail: 10 steps, app steps 18–29; 1 write of the app shown as \
        inputs. "scope" alone goes back.
        3/10  +1.050s  send at RecordSamples.swift:425  ContactDetail.Action.binding(.set(\\.phone, \
        "555"))
        "Grace"
        9/10  +3.500s  send at RecordSamples.swift:438  ContactDetail.Action.saveButtonTapped
           ↳ written by the app, before it (app step 26): contact.name = "Grace Hopper", name = \
        "Grace Hopper"
        Watchpoint 1: hasChanges (now true)
        0/10  the initial state
        Watchpoint 1: hasChanges
          false → true
        1/10  +0.350s  send at RecordSamples.swift:425  ContactDetail.Action.binding(.set(\\.phone, \
        "5"))
        Back to the whole recording at step 18.
        18/55  +6.300s  send at RecordSamples.swift:425  Contacts.Action.path(.element(id: #1, \
        action: .detail(.binding(.set(\\.phone, "5")))))
        The session is not narrowed: "scope PATH" narrows it to a child.

        """, "\(result.all)")
  }
}
