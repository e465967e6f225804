// A regression test made by `replay export-test` from the recording counter.actionlog.
// It fails, with the first differing step and the diff, when the reducer no longer does
// what the recording shows. Its target depends on ReplayTesting and ExampleFeatures.

import ExampleFeatures
import Foundation
import ReplayTesting
import Testing

@Test func counterReplaysAsRecorded() throws {
  let recording = ["..", "..", "..", "Recordings", "counter.actionlog"].reduce(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  ) {
    $0.appendingPathComponent($1)
  }
  try assertReplay(recording, feature: "counter") {
    CounterFeature()
  }
}
