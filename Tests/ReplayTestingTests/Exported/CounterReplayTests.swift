// A regression test made by `replay export-test` from the recording counter.actionlog.
// It fails, with the first differing step and the diff, when the reducer no longer does
// what the recording shows. Its target depends on ReplayTesting and ExampleFeatures.
//
// Where the recorded actions came from: the `Store.send`, or the effect that fed one back
// (as recorded; the code may have moved since).
//   record_samples/RecordSamples.swift:171   steps 1, 2, 5, 6, 7, 10 and 64 more
//   record_samples/RecordSamples.swift:173   steps 3, 8, 15, 22, 26, 32 and 14 more
//   ExampleFeatures/CounterFeature.swift:57  steps 4, 9, 16, 23, 27, 33 and 14 more
//   record_samples/RecordSamples.swift:172   steps 14, 31, 49, 68, 86, 103
//   record_samples/RecordSamples.swift:175   step 71
//   record_samples/RecordSamples.swift:176   step 72

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
