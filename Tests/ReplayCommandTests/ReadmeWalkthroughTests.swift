import Foundation
import TestSupport
import Testing

/// The README's walk-throughs work as written: each `sh` block runs in bash, in a copy of the
/// recordings and exported tests, with `swift run replay` running the built `replay` (and
/// `swift test` left to the suite this runs in), and prints what the `text` block after it shows.
@Suite struct ReadmeWalkthroughTests {
  static let root = ReplayCommandTests.root

  @Test(arguments: [
    "Attach a recording to a bug report", "Record in the field", "Shrink a failing recording",
    "Turn a recording into a regression test", "One feature's own recording",
    "I changed my types: my recordings still replay",
  ])
  func worksAsWritten(_ section: String) async throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(
      readme.range(of: "\n## \(section)\n"), "the README has no section \(section)")
    let body = readme[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
    let blocks = Self.blocks(in: body)
    #expect(blocks.count >= 2)

    let directory = TemporaryDirectory()
    let manager = FileManager.default
    try manager.copyItem(
      at: Self.root.appendingPathComponent("Recordings"), to: directory.file("Recordings")
    )
    try manager.createDirectory(
      at: directory.file("Tests/ReplayTestingTests"), withIntermediateDirectories: true)
    try manager.copyItem(
      at: Self.root.appendingPathComponent("Tests/ReplayTestingTests/Exported"),
      to: directory.file("Tests/ReplayTestingTests/Exported")
    )
    let replay = try #require(productURL("replay"))
    let shim = """
      swift() {
        if [ "$1" = run ] && [ "$2" = replay ]; then shift 2; "\(replay.path)" "$@"
        elif [ "$1" = test ]; then return 0
        else echo "unexpected: swift $*" >&2; return 99
        fi
      }

      """
    for (script, expected) in blocks {
      let result = try await run(
        "bash", ["-c", shim + script], in: directory.url, isProduct: false)
      #expect(!result.errors.contains("unexpected: swift"), "\(result.errors)")
      if let expected {
        #expect(
          Self.pageSizesMasked(result.output + result.errors) == Self.pageSizesMasked(expected),
          "\(script)")
      } else {
        #expect(result.status == 0, "\(script)\n\(result.errors)")
      }
    }
    // What the walk-through writes is what is checked in.
    for file in try manager.contentsOfDirectory(
      atPath: directory.file("Tests/ReplayTestingTests/Exported").path)
    {
      #expect(
        try Data(contentsOf: directory.file("Tests/ReplayTestingTests/Exported/\(file)"))
          == Data(
            contentsOf: Self.root.appendingPathComponent(
              "Tests/ReplayTestingTests/Exported/\(file)")),
        "\(file) differs from the checked-in file"
      )
    }
  }

  /// `text` with the size of each page `replay html` wrote masked: a page's size follows its
  /// viewer's code, which a harmless edit changes; the recording's size beside it stays.
  static func pageSizesMasked(_ text: String) -> String {
    text.replacing(/(?m)^(\s+size\s+)\d+ bytes/) { "\($0.output.1)‹n› bytes" }
  }

  /// Each `sh` block, with the `text` block that follows it, if one does.
  static func blocks(in text: String) -> [(script: String, output: String?)] {
    var blocks: [(script: String, output: String?)] = []
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    while let line = lines.popFirst() {
      guard line == "```sh" || line == "```text" else { continue }
      var content: [Substring] = []
      while let next = lines.popFirst(), next != "```" { content.append(next) }
      let joined = content.joined(separator: "\n") + "\n"
      if line == "```sh" {
        blocks.append((joined, nil))
      } else if !blocks.isEmpty, blocks[blocks.count - 1].output == nil {
        blocks[blocks.count - 1].output = joined
      }
    }
    return blocks
  }
}
