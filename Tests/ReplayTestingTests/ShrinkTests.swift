import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing
import TimeTravel

/// `replay shrink`: a long failing recording cut down to the few actions that make it fail,
/// driven through the real `replay`, and the shrunk recording checked with `assertReplay`.
@Suite struct ShrinkTests {
  static let heartBug: ReintroducedBugs = .heartStaysFilledAfterRemovingFavorite

  /// A bug report's session of 2,000 actions, recorded with the songs app's heart bug: hearts
  /// tapped on and off at random, sort orders, the durations setting, and at the very end one
  /// favourite removed from the favourites, which leaves its heart filled. Only that removal and
  /// the heart tap that made the song a favourite matter.
  @MainActor
  static func recordLongReport(_ url: URL, actions: Int = 2_000, seed: UInt64) async throws {
    let recorder = try RecorderOf<SongsApp>(
      url: url, feature: "songs", initialState: SongsApp.State(), checkpointInterval: 50,
      metadata: ["description": "the heart stays filled after removing a favourite"],
      startedAt: Date(timeIntervalSince1970: 1_780_000_000),
      elapsed: Self.virtualClock()
    )
    let store = Store(initialState: SongsApp.State()) {
      SongsApp().recording(to: recorder)
    } withDependencies: {
      $0.favorites = .liveValue
      $0.reintroducedBugs = Self.heartBug
    }
    var random = seed
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    let ids = Song.catalog.map(\.id)
    while recorder.count < actions - 2 {
      switch next(10) {
      case 0..<7:
        let id = ids[next(ids.count)]
        await store.send(.library(.songs(.element(id: id, action: .heartTapped)))).finish()
      case 7:
        store.send(.settings(.sortOrderPicked(next(2) == 0 ? .title : .artist)))
      default:
        store.send(.settings(.showsDurationsToggled))
      }
    }
    if store.state.favorites.songs.isEmpty {
      await store.send(.library(.songs(.element(id: ids[0], action: .heartTapped)))).finish()
    }
    let favorite = try #require(store.state.favorites.songs.last)
    await store.send(.favorites(.removeButtonTapped(favorite.id))).finish()
    try recorder.close()
  }

  static func virtualClock() -> @Sendable () -> Duration {
    let ticks = LockIsolated(0)
    return {
      .milliseconds(
        ticks.withValue {
          $0 += 1; return $0
        } * 350)
    }
  }

  /// Where today's reducer first parts from a recording: the path of the first difference in
  /// the first checkpoint it does not reproduce.
  static func firstDivergentPath(_ url: URL) throws -> StatePath? {
    let recording = try Recording(contentsOf: url)
    let timeline = try Timeline(recording: recording, reducer: SongsApp(), feature: "songs")
    guard let divergence = try timeline.verify() else { return nil }
    let recorded = try recording.checkpoint(after: divergence.checkpoint, as: SongsApp.State.self)
    // Replayed from the last state that agreed: the timeline's own state there is the recorded
    // checkpoint.
    var replayed = try timeline.state(at: divergence.lastAgreement)
    for step in divergence.lastAgreement + 1...divergence.checkpoint {
      try timeline.replayer.apply(step, to: &replayed)
    }
    return StatePath.firstDifference(recorded, replayed)
  }

  @Test func aLongBugReportShrinksToTheActionsThatDiverge() async throws {
    let directory = TemporaryDirectory()
    let report = directory.file("report.actionlog")
    try await Self.recordLongReport(report, seed: 2026)
    #expect(try Recording(contentsOf: report).count >= 2_000)
    let original = try #require(try Self.firstDivergentPath(report))
    #expect(original.description.hasSuffix(".isFavorite"))

    let shrunk = try await run(
      "replay",
      ["shrink", "report.actionlog", "--verify", "--recorded-with", "heart-bug"],
      in: directory.url)
    #expect(shrunk.status == 0, "\(shrunk.errors)")
    let lines = shrunk.output.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "Shrinking report.actionlog (2000 actions) to the fewest that still fail: "
        + "today's reducer differs from the recorded behaviour.")
    #expect(lines.contains { $0.hasPrefix("Round 1: ") })
    #expect(lines.contains { $0.hasPrefix("Wrote report.shrunk.actionlog.") })

    let url = directory.file("report.shrunk.actionlog")
    let recording = try Recording(contentsOf: url)
    #expect(recording.count <= 10)
    #expect(
      recording.header.metadata["shrunkFrom"]?.contains("of 2000 in report.actionlog") == true)
    // The removal and the heart tap before it, each with what its effect fed back.
    let actions = try (1...recording.count).map {
      try recording.action($0, as: SongsApp.Action.self).action
    }
    #expect(actions.contains { if case .favorites(.removed) = $0 { true } else { false } })
    #expect(
      actions.contains {
        if case .library(.songs(.element(_, .heartTapped))) = $0 { true } else { false }
      })

    // Replayed with today's reducer, it fails where the long one did.
    let path = try #require(try Self.firstDivergentPath(url))
    #expect(path.isSameProperty(as: original), "\(path) vs \(original)")
    let messages = LockIsolated<[String]>([])
    try withKnownIssue {
      try assertReplay(url) { SongsApp() }
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    #expect(messages.value.count == 1)
    #expect(
      messages.value.first?.contains("-         isFavorite: true,\n  +         isFavorite: false,")
        == true)
    // With the behaviour it was recorded with, it replays step for step.
    try assertReplay(url) { SongsApp().dependency(\.reintroducedBugs, Self.heartBug) }
  }

  @Test func ctrlCWritesTheSmallestFoundSoFar() async throws {
    let directory = TemporaryDirectory()
    try await Self.recordLongReport(directory.file("report.actionlog"), seed: 7)
    let result = try await runInterrupted(
      "replay", ["shrink", "report.actionlog", "--verify", "--recorded-with", "heart-bug"],
      afterLines: 3, in: directory.url)
    #expect(result.status == 130, "\(result.errors)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("Round 1: ") })
    #expect(
      lines.contains { $0.hasPrefix("Interrupted; the smallest so far: report.actionlog from ") },
      "\(result.output)")
    let written = try Recording(contentsOf: directory.file("report.shrunk.actionlog"))
    #expect(written.count < 2_000)
    #expect(
      written.header.metadata["shrunkFrom"]?.hasSuffix("; interrupted, it may shrink further")
        == true)
  }
}
