// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ComposableArchitecture
import Foundation
import Testing

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

@MainActor
@Suite struct PreferencesTests {
  @Test func oneScreenChangesThePreferencesTheOtherReads() async {
    let store = TestStore(initialState: Preferences.State()) { Preferences() }
    await store.send(\.appearance.largerTextButtonTapped) {
      $0.appearance.$preferences.withLock { $0.fontSize = 16 }
    }
    await store.send(\.appearance.themePicked, "dark") {
      $0.appearance.$preferences.withLock { $0.theme = "dark" }
    }
    await store.send(\.page.renderButtonTapped) {
      $0.page.rendered = ["dark 16pt"]
    }
  }

  @Test func aFileRewrittenByAnotherProgramReachesBothScreens() async throws {
    let storage = FileStorage.inMemory()
    let store = TestStore(initialState: Preferences.State()) {
      Preferences()
    } withDependencies: {
      $0.defaultFileStorage = storage
    }
    let url = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("ComposableReplay-example/reading-preferences.json")
    try storage.write(
      JSONEncoder().encode(ReadingPreferences(fontSize: 20, theme: "sepia")), to: url)
    #expect(store.state.appearance.preferences.theme == "sepia")
    await store.send(\.page.renderButtonTapped) {
      $0.page.rendered = ["sepia 20pt"]
    }
  }

  @Test func aChangeTheTestDoesNotAssertFails() async {
    let store = TestStore(initialState: Preferences.State()) { Preferences() }
    await withKnownIssue {
      await store.send(\.appearance.largerTextButtonTapped)
    } matching: { issue in
      issue.description.contains("fontSize: 14") && issue.description.contains("fontSize: 16")
    }
  }
}
