import ActionLog
import Foundation
import TimeTravel

/// The session for a recording: one that re-runs the reducer when `catalog` has the feature,
/// else a read-only one that says why.
func openSession(_ recording: Recording, _ catalog: FeatureCatalog) -> any TimelineSession {
  let id = recording.header.feature
  guard let feature = catalog.feature(for: recording.header) else {
    return ReadOnlySession(
      recording: recording,
      reason: "this replay does not have the feature \"\(id)\" linked in"
    )
  }
  do {
    return try feature.open(recording)
  } catch let TimelineError.otherTypes(expected, found) {
    return ReadOnlySession(
      recording: recording,
      reason: """
        its types (\(found)) are not those of the feature "\(id)" linked in (\(expected)): it \
        was recorded with another version of the feature, or another feature of that name
        """
    )
  } catch {
    return ReadOnlySession(recording: recording, reason: "\(error)")
  }
}

/// What to say about a recording before working with it: how it ended, if not cleanly, and
/// its warnings.
func notes(on recording: Recording) -> [String] {
  var notes: [String] = []
  if recording.ending != .clean {
    notes.append(
      """
      warning: the recording is \(recording.ending); it opens at its last whole record, step \
      \(recording.count).
      """
    )
  }
  for skipped in recording.skippedRecords { notes.append("warning: skipped \(skipped)") }
  for warning in recording.warnings { notes.append("warning: \(warning)") }
  return notes
}
