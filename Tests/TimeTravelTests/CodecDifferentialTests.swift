import ActionLog
import ExampleFeatures
import ExampleSchemas
import Foundation
import TestSupport
import Testing

/// Every bundled recording read through the record codec's own decoder and through Foundation's
/// `JSONDecoder`: the same header, actions, captured values and checkpoints.
@Suite struct CodecDifferentialTests {
  func compare<State: Decodable & Equatable, Action: Decodable & Equatable>(
    _ name: String, _ state: State.Type, _ action: Action.Type
  ) throws {
    let url = bundledRecording(name)
    let ours = try Recording(contentsOf: url, codec: CompactJSONCodec())
    let foundation = try Recording(contentsOf: url, codec: FoundationJSONCodec())
    #expect(ours.header == foundation.header, "\(name)")
    #expect(ours.count == foundation.count && ours.checkpoints == foundation.checkpoints)
    #expect(try ours.initialState(as: State.self) == foundation.initialState(as: State.self))
    for seq in stride(from: 1, through: ours.count, by: 1) {
      let left = try ours.action(seq, as: Action.self)
      let right = try foundation.action(seq, as: Action.self)
      #expect(left == right, "\(name), action \(seq)")
    }
    for seq in ours.checkpoints {
      #expect(
        try ours.checkpoint(after: seq, as: State.self)
          == foundation.checkpoint(after: seq, as: State.self), "\(name), checkpoint \(seq)")
    }
  }

  @Test func everyBundledRecordingReadsAlike() throws {
    try self.compare("counter", CounterFeature.State.self, CounterFeature.Action.self)
    try self.compare("todos", Todos.State.self, Todos.Action.self)
    try self.compare("todos-redacted", Todos.State.self, Todos.Action.self)
    try self.compare("songs", SongsApp.State.self, SongsApp.Action.self)
    try self.compare("songs-heart-bug", SongsApp.State.self, SongsApp.Action.self)
    try self.compare(
      "bug-reports/songs-heart-bug-as-reported", SongsApp.State.self, SongsApp.Action.self)
  }

  @Test func everyRecordOfEveryRecordingParsesAlike() throws {
    let folder = packageRoot.appendingPathComponent("Recordings")
    let files = try #require(FileManager.default.enumerator(atPath: folder.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".actionlog") }
    #expect(files.count >= 10)
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let payload = Array(line.utf8.dropFirst(9))
        let (ours, foundation) = try payload.withUnsafeBytes {
          (
            try CompactJSONCodec().decode(JSONValue.self, from: $0),
            try FoundationJSONCodec().decode(JSONValue.self, from: $0)
          )
        }
        #expect(ours == foundation, "\(file)")
      }
    }
  }
}
