import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing

/// A recording of a real bug: the songs app once left a song's heart filled after the song was
/// removed from the favourites, so the next tap on that heart did not add it back.
///
/// `Recordings/bug-reports/songs-heart-bug-as-reported.actionlog` is the session as the report
/// attached it, recorded against the code with the bug. `Recordings/songs-heart-bug.actionlog`
/// is the same session recorded again after the fix: a regression test in the bundled suite. The
/// bug comes back through the `reintroducedBugs` dependency.
@Suite struct BugRecordingTests {
  static let withTheBug: ReintroducedBugs = .heartStaysFilledAfterRemovingFavorite

  @Test func theRegressionRecordingCatchesTheBugWhenItComesBack() throws {
    try assertReplay(bundledRecording("songs-heart-bug")) { SongsApp() }

    let messages = try self.failures {
      try assertReplay(bundledRecording("songs-heart-bug"), rerecord: "Tools/record-samples") {
        SongsApp().dependency(\.reintroducedBugs, Self.withTheBug)
      }
    }
    #expect(
      messages == [
        """
        songs-heart-bug.actionlog: today's reducer does not reproduce the recording.

        The replay differs from the recording at step 8: the state after it is not the one \
        recorded, and the step before it still agreed.

          Action at step 8 (+2.800s):
            SongsApp.Action.favorites(
              .removed(6)
            )

            SongsApp.State(
              favorites: Favorites.State(…),
              library: Library.State(
                songs: [
                  … (5 unchanged),
                  [5]: SongRow.State(
                    song: Song(…),
          -         isFavorite: false,
          +         isFavorite: true,
                    isSaving: false
                  ),
                  … (2 unchanged)
                ]
              ),
              settings: Settings.State(…)
            )

        (Recorded: −, Replayed: +)

        If the reducer is wrong, fix it. If the new behaviour is intended, record it again with \
        Tools/record-samples and commit the new recording.
        """
      ]
    )
  }

  @Test func theReportedRecordingShowsTheBugThatTodaysReducerFixed() throws {
    let reported = bundledRecording("bug-reports/songs-heart-bug-as-reported")
    // It captured the bug: with the bug brought back, it replays step for step.
    try assertReplay(reported) {
      SongsApp().dependency(\.reintroducedBugs, Self.withTheBug)
    }
    // Today's reducer parts from it where the fix changed behaviour.
    let messages = try self.failures {
      try assertReplay(reported) { SongsApp() }
    }
    #expect(messages.count == 1)
    #expect(
      messages.first?.hasPrefix(
        """
        songs-heart-bug-as-reported.actionlog: today's reducer does not reproduce the recording.

        The replay differs from the recording at step 8: the state after it is not the one \
        recorded, and the step before it still agreed.
        """
      ) == true
    )
    #expect(
      messages.first?.contains("  -         isFavorite: true,\n  +         isFavorite: false,")
        == true)
  }

  private func failures(_ body: () throws -> Void) throws -> [String] {
    let messages = LockIsolated<[String]>([])
    try withKnownIssue {
      try body()
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    return messages.value
  }
}
