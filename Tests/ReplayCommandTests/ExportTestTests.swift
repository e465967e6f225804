import Foundation
import TestSupport
import Testing

/// `replay export-test`: its output is the file
/// `Tests/ReplayTestingTests/Exported/CounterReplayTests.swift`,
/// which the test suite compiles and runs, so what it writes compiles and passes as written.
@Suite struct ExportTestTests {
  static let root = ReplayCommandTests.root

  @Test func writesTheCompiledTestAndCopiesTheRecording() async throws {
    let directory = TemporaryDirectory()
    let source = directory.file("saved/counter.actionlog")
    try FileManager.default.createDirectory(
      at: source.deletingLastPathComponent(), withIntermediateDirectories: true
    )
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Recordings/counter.actionlog"), to: source
    )
    let export = [
      "export-test", source.path, "--name", "counter",
      "--recordings", directory.file("Recordings").path,
      "--tests", directory.file("Tests/ReplayTestingTests/Exported").path,
    ]
    let result = try await run("replay", export, in: Self.root)
    #expect(result.status == 0, "\(result.errors)")
    let written = try String(
      contentsOf: directory.file("Tests/ReplayTestingTests/Exported/CounterReplayTests.swift"),
      encoding: .utf8
    )
    let compiled = try String(
      contentsOf: Self.root.appendingPathComponent(
        "Tests/ReplayTestingTests/Exported/CounterReplayTests.swift"
      ),
      encoding: .utf8
    )
    #expect(written == compiled)
    #expect(
      try Data(contentsOf: directory.file("Recordings/counter.actionlog"))
        == Data(contentsOf: source)
    )
    // A second export of that name is refused, and changes nothing.
    let again = try await run("replay", export, in: Self.root)
    #expect(again.status == 2)
    #expect(again.errors.hasSuffix("counter.actionlog exists: give --force to replace it.\n"))
    let badName = try await run(
      "replay", ["export-test", source.path, "--name", "no spaces"], in: Self.root
    )
    #expect(
      badName.errors == "replay: --name takes letters, digits, - and _: \"no spaces\" has others.\n"
    )
  }
}
