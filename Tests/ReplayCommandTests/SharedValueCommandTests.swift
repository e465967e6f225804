import Foundation
import TestSupport
import Testing

/// The bundled recording whose shared file another program rewrote: `replay` shows the change
/// where it happened, verifies the recording, names the step a recording without it diverges
/// at, and never touches the user's file.
@Suite struct SharedValueCommandTests {
  static let root = ReplayCommandTests.root
  static let recording = "Recordings/preferences.actionlog"

  @Test func theREPLShowsTheChangeFromOutsideBeforeItsStep() async throws {
    let result = try await run(
      "replay", [Self.recording],
      input: "goto 2\ngoto 3\nprint page.preferences\ndiff\ninfo\n", in: Self.root)
    #expect(result.status == 0, "\(result.all)")
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(
      lines.first
        == "2/6  +0.700s  send at PreferencesSession.swift:32  Preferences.Action.page(.renderButtonTapped)"
    )
    #expect(
      lines.dropFirst().prefix(2)
        == [
          "3/6  +1.050s  send at PreferencesSession.swift:55  Preferences.Action.page(.renderButtonTapped)",
          #"   ↳ changed outside the app, before it: .fileStorage(reading-preferences.json) = {"fontSize":20,"theme":"sepia"}"#,
        ])
    #expect(result.output.contains("ReadingPreferences(\n  fontSize: 20,\n  theme: \"sepia\"\n)"))
    #expect(lines.contains("-       theme: \"light\""))
    #expect(lines.contains("+       theme: \"sepia\""))
    #expect(
      lines.contains(
        "Shared values: 1 change from outside the app (.fileStorage(reading-preferences.json))."))
  }

  @Test func verifyReproducesItAndNamesTheStepWithoutTheChange() async throws {
    let verified = try await run("replay", ["verify", Self.recording], in: Self.root)
    #expect(verified.status == 0, "\(verified.all)")

    let directory = TemporaryDirectory()
    let original = try String(
      contentsOf: Self.root.appendingPathComponent(Self.recording), encoding: .utf8)
    let kept = original.split(separator: "\n").filter { !$0.contains(#""source":"outside""#) }
    let edited = directory.file("edited.actionlog")
    try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: edited)
    let diverged = try await run("replay", ["verify", edited.path], in: Self.root)
    #expect(diverged.status != 0)
    #expect(diverged.all.contains("at step 3"), "\(diverged.all)")
    #expect(diverged.all.contains("sepia"), "\(diverged.all)")
  }

  /// `TMPDIR` points the example's preferences file into a folder of the test's own: replaying
  /// neither writes the file nor creates it.
  @Test(arguments: [true, false])
  func replayingTouchesNoFile(fileExists: Bool) async throws {
    let temporary = TemporaryDirectory()
    let folder = temporary.url.appendingPathComponent("ComposableReplay-example")
    let file = folder.appendingPathComponent("reading-preferences.json")
    let contents = Data(#"{"fontSize":99,"theme":"mine"}"#.utf8)
    if fileExists {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try contents.write(to: file)
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file.path)
    }
    let environment = ["TMPDIR": temporary.url.path]
    let verified = try await run(
      "replay", ["verify", Self.recording], in: Self.root, environment: environment)
    #expect(verified.status == 0, "\(verified.all)")
    let explored = try await run(
      "replay", [Self.recording],
      input:
        "goto 6\nsend {\"appearance\":{\"_0\":{\"largerTextButtonTapped\":{}}}}\ndiscard\ngoto 1\n",
      in: Self.root, environment: environment)
    #expect(explored.status == 0, "\(explored.all)")
    #expect(explored.output.contains("fontSize: 24"), "\(explored.all)")
    if fileExists {
      #expect(try Data(contentsOf: file) == contents)
      let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
      #expect(modified as? Date == Date(timeIntervalSince1970: 1_000_000))
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == [file.lastPathComponent]
      )
    } else {
      #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
  }
}
