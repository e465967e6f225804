@_spi(Internals) import ActionLog
import Foundation
import TestSupport
import Testing

/// The writer's bound on the memory waiting records hold: a sender that outpaces it waits, and
/// every record it was given is written.
@Suite struct BackpressureTests {
  struct Big: Codable, Sendable {
    var values: [Int]
  }

  func write(maximumPendingBytes: Int, count: Int) throws -> Recording {
    let directory = TemporaryDirectory()
    let url = directory.file()
    var options = LogWriter.Options(syncPolicy: .never)
    options.maximumPendingBytes = maximumPendingBytes
    let initial = Big(values: Array(0..<2_000))
    let writer = try LogWriter(
      url: url,
      header: LogHeader(
        feature: "big", stateType: "Big", actionType: "Step", startedAt: fixedStart,
        checkpointInterval: 1_000, hasStepUpdates: true),
      initialState: initial, options: options)
    var state = initial
    for seq in 1...count {
      state.values[seq % state.values.count] = -seq
      writer.append(
        .action(
          seq: seq, time: .nanoseconds(seq), origin: .send, value: Step(number: seq),
          captured: CapturedValues(), state: state))
    }
    try writer.close()
    return try Recording(contentsOf: url)
  }

  @Test(arguments: [0, 1, 64 << 10, 64 << 20])
  func everyRecordIsWrittenWhateverTheBound(bytes: Int) throws {
    let recording = try self.write(maximumPendingBytes: bytes, count: 1_000)
    #expect(recording.ending == .clean)
    #expect(recording.count == 1_000)
    #expect(try recording.action(1_000, as: Step.self).action == Step(number: 1_000))
    guard case let .array(values)? = try recording.stateJSON(after: 1_000)["values"] else {
      Issue.record("the last state has no values")
      return
    }
    #expect(values[1_000 % 2_000] == .integer(-1_000))
  }
}
