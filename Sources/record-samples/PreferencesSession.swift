import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

extension RecordSamples {
  /// Two screens sharing the reader's preferences through a file: larger text, a page
  /// rendered; then another program rewrites the file, and the session waits until the app has
  /// seen it; a page rendered with what the file now says, the theme changed, larger text, a
  /// page rendered.
  ///
  /// The preferences' file is in a temporary folder of the session's own (the temporary
  /// directory is pointed there while it runs), so no other run's file is read or changed.
  @MainActor
  static func preferencesSession(_ url: URL) async throws -> Int {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("record-samples-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let previous = ProcessInfo.processInfo.environment["TMPDIR"]
    setenv("TMPDIR", folder.path, 1)
    defer {
      if let previous { setenv("TMPDIR", previous, 1) } else { unsetenv("TMPDIR") }
      try? FileManager.default.removeItem(at: folder)
    }
    let initial = Preferences.State()
    let file = folder.appendingPathComponent("ComposableReplay-example/reading-preferences.json")
    let recorder = try self.recorder(
      Preferences.self, feature: "preferences", url: url, initialState: initial,
      metadata: ["description": "the preferences file rewritten by another program at step 2"])
    let store = Store(initialState: initial) { Preferences().recording(to: recorder) }
    store.send(.appearance(.largerTextButtonTapped))
    store.send(.page(.renderButtonTapped))
    FileStorage.fileSystem.flush()

    // Another program rewrites the file, as an editor or a sync service would.
    let rewrite = Process()
    rewrite.executableURL = URL(fileURLWithPath: "/bin/sh")
    rewrite.arguments = [
      "-c", #"printf '%s' "$1" > "$2.new" && mv "$2.new" "$2""#, "sh",
      #"{"fontSize":20,"theme":"sepia"}"#, file.path,
    ]
    try rewrite.run()
    rewrite.waitUntilExit()
    guard rewrite.terminationStatus == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: ["path": file.path])
    }
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    while store.page.preferences.theme != "sepia" {
      guard ContinuousClock.now < deadline else {
        throw CocoaError(.fileReadUnknown, userInfo: ["path": file.path])
      }
      try await Task.sleep(for: .milliseconds(10))
    }

    store.send(.page(.renderButtonTapped))
    store.send(.appearance(.themePicked("dark")))
    store.send(.appearance(.largerTextButtonTapped))
    store.send(.page(.renderButtonTapped))
    FileStorage.fileSystem.flush()
    try recorder.close()
    return recorder.count
  }
}
