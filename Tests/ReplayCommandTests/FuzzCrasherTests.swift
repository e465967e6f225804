import Foundation
import TestSupport
import Testing

/// Every input the fuzzer (or a person) ever found that crashed or hung `replay`, kept in
/// Tests/Fuzz/crashers, goes through the real commands again on each run of the suite.
@Suite struct FuzzCrasherTests {
  @Test func everyKeptCrasherIsAnsweredWithoutACrashOrAHang() async throws {
    let kept = try ["crashers", "corpus"].flatMap { folder in
      try FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent("Tests/Fuzz/\(folder)").path
      ).filter { $0.hasSuffix(".actionlog") }
    }
    #expect(kept.count >= 12)
    let checked = try await run(
      "replay-fuzz",
      ["--check", "Tests/Fuzz/crashers", "Tests/Fuzz/corpus", "--hang-limit", "20"],
      in: packageRoot
    )
    #expect(checked.status == 0, "\(checked.output)\(checked.errors)")
    #expect(
      checked.output.hasPrefix(
        "Checked \(kept.count) files through \(kept.count * 7) runs: 0 crashing or hanging"),
      "\(checked.output)"
    )
  }
}
