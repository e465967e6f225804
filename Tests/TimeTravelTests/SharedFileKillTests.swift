import Foundation
import TestSupport
import Testing

/// A process killed while it changes a `@Shared(.fileStorage(…))` value as fast as it can leaves
/// the file whole: the value of some change, never a torn write, and never older than what a
/// flush acknowledged. Each run starts from what the last one left, as an app's next launch.
@Suite struct SharedFileKillTests {
  struct Payload: Codable {
    var count: Int
    var text: String
  }

  @Test func aKilledWriterLeavesAWholeFile() async throws {
    let executable = try #require(
      productURL("record-stress"), "build the record-stress product first")
    let directory = TemporaryDirectory()
    let url = directory.file("shared.json")
    var generator = SystemRandomNumberGenerator()
    var last = 0
    var files = 0
    let runs = killRuns(default: 200)
    for run in 1...runs {
      let (acknowledged, exitedEarly) = try await runAndKill(
        executable, arguments: ["--shared-file", url.path, "--flush-every", "50"],
        // NB: The delay picks where the kill lands in an endless run, not how fast it goes.
        after: .milliseconds(Int.random(in: 5...120, using: &generator))
      )
      #expect(!exitedEarly, "run \(run): the writer exited before it was killed")
      guard let data = try? Data(contentsOf: url) else {
        #expect(acknowledged == 0 && last == 0, "run \(run): the file is gone")
        continue
      }
      let payload = try JSONDecoder().decode(Payload.self, from: data)
      #expect(payload.count >= acknowledged, "run \(run): lost an acknowledged change")
      #expect(payload.count >= last, "run \(run): went back from \(last) to \(payload.count)")
      #expect(payload.text.count == payload.count % 4_096, "run \(run): a torn value")
      last = payload.count
      files += 1
    }
    #expect(last > 0)
    print(
      """
      shared-file kill loop: \(runs) kills, \(files) files read back whole, none older than \
      acknowledged; the last held change \(last)
      """)
  }
}
