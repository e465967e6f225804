import Foundation
import TestSupport
import Testing

/// The inputs the decoder's fuzzing kept (Tools/fuzz-decoder), replayed through the same check:
/// no crash, and the same value as Foundation's `JSONDecoder` where both read one.
@Suite struct DecoderCorpusTests {
  @Test func theFuzzingCorpusStillPasses() async throws {
    let folder = packageRoot.appendingPathComponent("Tests/Fuzz/decoder-corpus")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(files.count >= 40)
    let result = try await run("decode-fuzz", files, in: folder)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output == "decode-fuzz: \(files.count) inputs, none crashed\n")
  }
}
