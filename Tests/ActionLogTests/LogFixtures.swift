import ActionLog
import Foundation
import TestSupport

/// A small action type for log tests.
struct Step: Codable, Equatable, Sendable {
  var number: Int
  var note: String = ""
}

/// A small state type for log tests.
struct Tally: Codable, Equatable, Sendable {
  var total: Int
}

let fixedStart = Date(timeIntervalSince1970: 1_763_780_000)

func makeHeader(format: Int = LogFormat.version) -> LogHeader {
  LogHeader(
    format: format,
    feature: "tally",
    stateType: "Tally",
    actionType: "Step",
    startedAt: fixedStart,
    checkpointInterval: 2,
    metadata: ["app": "tests"]
  )
}

/// Writes a log with `count` actions (action n adds n), a checkpoint after every second action,
/// and, when `close` is true, an end record. Returns the file's bytes.
func writeLog(
  to url: URL, count: Int, close: Bool = true, syncPolicy: LogWriter.SyncPolicy = .never
) throws -> Data {
  let writer = try LogWriter(
    url: url,
    header: makeHeader(),
    initialState: Tally(total: 0),
    options: LogWriter.Options(syncPolicy: syncPolicy)
  )
  var total = 0
  for seq in 1...max(count, 1) where count > 0 {
    total += seq
    writer.append(
      .action(
        seq: seq,
        time: .milliseconds(10 * seq),
        origin: seq.isMultiple(of: 3) ? .effect(parent: seq - 1) : .send,
        value: Step(number: seq),
        captured: seq == 1
          ? CapturedValues(["uuid": ["00000000-0000-0000-0000-000000000001"]]) : CapturedValues()
      )
    )
    if seq.isMultiple(of: 2) {
      writer.append(.checkpoint(seq: seq, state: Tally(total: total)))
    }
  }
  if close {
    try writer.close(at: .milliseconds(10 * count + 5))
  } else {
    try writer.flush()
  }
  return try Data(contentsOf: url)
}
