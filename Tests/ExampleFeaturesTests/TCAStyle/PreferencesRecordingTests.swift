// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

/// The preferences feature recorded while its file is rewritten from outside: the recording
/// replays with the change, and without it the replay diverges where the change mattered.
@MainActor
@Suite struct PreferencesRecordingTests {
  @Test func aRecordingKeepsTheFileRewrittenFromOutside() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let storage = FileStorage.inMemory()
    let file = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("ComposableReplay-example/reading-preferences.json")
    try await withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      let initial = Preferences.State()
      let recorder = try RecorderOf<Preferences>(
        url: url, feature: "preferences", initialState: initial)
      let store = Store(initialState: initial) { Preferences().recording(to: recorder) }
      store.send(.appearance(.largerTextButtonTapped))
      try storage.write(Data(#"{"fontSize":30,"theme":"night"}"#.utf8), to: file)
      #expect(await eventually { store.state.page.preferences.theme == "night" })
      store.send(.page(.renderButtonTapped))
      try recorder.close()
    }
    let recording = try Recording(contentsOf: url)
    let timeline = try Timeline(
      recording: recording, reducer: Preferences(), feature: "preferences")
    #expect(try timeline.verify() == nil)
    try timeline.goto(2)
    #expect(timeline.state.page.rendered == ["night 30pt"])

    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let edited = directory.file("edited.actionlog")
    try Data(
      (lines.filter { !$0.contains(#""source":"outside""#) }.joined(separator: "\n") + "\n").utf8
    ).write(to: edited)
    let without = try Timeline(
      recording: try Recording(contentsOf: edited), reducer: Preferences(),
      feature: "preferences")
    #expect(try without.verify()?.checkpoint == 2)
  }
}
