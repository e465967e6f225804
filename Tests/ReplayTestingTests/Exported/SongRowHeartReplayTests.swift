// A regression test made by `replay export-test` from the recording song-row-heart.actionlog.
// It fails, with the first differing step and the diff, when the reducer no longer does
// what the recording shows. Its target depends on ReplayTesting and ExampleFeatures.
//
// Where the recorded actions came from: the `Store.send`, or the effect that fed one back
// (as recorded; the code may have moved since).
//   record_samples/RecordSamples.swift:338  step 1
//   ExampleFeatures/SongRow.swift:43        steps 2, 4
//   record_samples/RecordSamples.swift:342  step 3

import ExampleFeatures
import Foundation
import ReplayTesting
import Testing

@Test func songRowHeartReplaysAsRecorded() throws {
  let recording = ["..", "..", "..", "Recordings", "song-row-heart.actionlog"].reduce(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  ) {
    $0.appendingPathComponent($1)
  }
  try assertReplay(recording, feature: "songRow") {
    SongRow()
  }
}
