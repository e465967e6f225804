// A regression test made by `replay export-test` from the recording songs-heart-bug.actionlog.
// It fails, with the first differing step and the diff, when the reducer no longer does
// what the recording shows. Its target depends on ReplayTesting and ExampleFeatures.
//
// Where the recorded actions came from: the `Store.send`, or the effect that fed one back
// (as recorded; the code may have moved since).
//   record_samples/RecordSamples.swift:338  steps 1, 3, 5
//   ExampleFeatures/SongRow.swift:43        steps 2, 4, 6, 11
//   record_samples/RecordSamples.swift:340  step 7
//   ExampleFeatures/Favorites.swift:27      step 8
//   record_samples/RecordSamples.swift:341  step 9
//   record_samples/RecordSamples.swift:342  step 10

import ExampleFeatures
import Foundation
import ReplayTesting
import Testing

@Test func songsHeartBugReplaysAsRecorded() throws {
  let recording = ["..", "..", "..", "Recordings", "songs-heart-bug.actionlog"].reduce(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  ) {
    $0.appendingPathComponent($1)
  }
  try assertReplay(recording, feature: "songs") {
    SongsApp()
  }
}
