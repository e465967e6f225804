import ActionLog
import ComposableArchitecture
import Foundation

/// Records a ``ComposableArchitecture/TestStore``'s run, for the testing module that installs it
/// (`ComposableArchitectureTesting`), which the test store finds at run time (see
/// ``ComposableArchitecture/TestStoreRecording``).
///
/// What it has to tell the person running the tests (where a failing test's run is, a value it
/// could not hold) goes to `report`: the front end says it, this module writes to no terminal.
public struct _TestStoreRecorder {
  public static func _record<R: Reducer>(
    _ reducer: R, initialState: R.State, dependencies: DependencyValues,
    recording: TestStoreRecording, testName: String?, filePath: String, line: UInt,
    report: @escaping @Sendable (String) -> Void
  ) -> _TestStoreRecorded<R.State, R.Action>? where R.State: Equatable {
    let directory = recording.directory ?? Self.defaultDirectory(near: filePath)
    // NB: Named by its state's type: a test's reducer is often a composition (`Reduce`, a
    // `CombineReducers`) whose own type says little.
    var feature = recordedTypeName(R.State.self)
    if feature.hasSuffix(".State") { feature.removeLast(".State".count) }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let (url, recorder) = try Self.newRecorder(
        R.self, in: directory,
        name: Self.fileName(testName: testName, filePath: filePath, line: line),
        feature: feature, initialState: initialState, report: report)
      let recordingReducer = reducer.recording(to: recorder)
      let handle = TestStoreRecordingHandle(
        url: url, recorder: recorder, reducer: reducer, feature: feature,
        dependencies: dependencies, recording: recording, report: report)
      return _TestStoreRecorded(
        reduce: { recordingReducer.reduce(into: &$0, action: $1) }, recording: handle)
    } catch {
      // NB: A test store that cannot record still tests; the failure message says why.
      return nil
    }
  }

  /// `.build/test-recordings` of the package `filePath` is in, else the temporary folder's.
  static func defaultDirectory(near filePath: String) -> URL {
    var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
      {
        return folder.appendingPathComponent(".build/test-recordings", isDirectory: true)
      }
      folder.deleteLastPathComponent()
    }
    return FileManager.default.temporaryDirectory
      .appendingPathComponent("test-recordings", isDirectory: true)
  }

  /// The suite and the test, as a file name: `TodosTests.addingATodo()` from Swift Testing's
  /// `TodosTests/TodosTests/addingATodo()/TodosTests.swift:12:4`; the file and line of the test
  /// store elsewhere.
  static func fileName(testName: String?, filePath: String, line: UInt) -> String {
    let file = URL(fileURLWithPath: filePath).deletingPathExtension().lastPathComponent
    var name = "\(file)-\(line)"
    if let testName {
      let parts = testName.split(separator: "/").filter { !$0.contains(".swift:") }
      name = parts.suffix(2).joined(separator: ".")
    }
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-()"))
    return String(name.unicodeScalars.map { allowed.contains($0) ? Character($0) : "_" })
  }

  /// When this process made its first test store's recording: a file of the same name from
  /// before is an earlier run's, which this run's replaces.
  static let runStarted = Date()

  /// A recorder writing a file of its own in `directory`: `NAME.actionlog`, or `NAME-2…` when
  /// another store of the test has that one in this run.
  static func newRecorder<R: Reducer>(
    _ reducer: R.Type, in directory: URL, name: String, feature: String, initialState: R.State,
    report: @escaping @Sendable (String) -> Void
  ) throws -> (URL, RecorderOf<R>) {
    let runStarted = Self.runStarted
    var attempt = 1
    while true {
      let url = directory.appendingPathComponent(
        attempt == 1 ? "\(name).actionlog" : "\(name)-\(attempt).actionlog")
      if let modified = try? FileManager.default.attributesOfItem(atPath: url.path)[
        .modificationDate] as? Date, modified < runStarted
      {
        try? FileManager.default.removeItem(at: url)
      }
      do {
        return (
          url,
          try RecorderOf<R>(
            url: url, feature: feature, initialState: initialState, checkpointInterval: 50,
            metadata: ["recorded by": "TestStore", "test": name],
            // NB: Written out at each failure, not synced: a test that crashes leaves what was
            // written, and a test run is not worth a disk's flush per store.
            options: LogWriter.Options(
              // NB: The writer waits for a failure or the end of the test (or a full queue)
              // rather than working beside the test: a test store's effects race its clock
              // and its yields as they do without a recorder, not against a writer's thread.
              syncPolicy: .never, flushInterval: .seconds(3_600), batchSize: 65_536,
              // NB: What the recorder cannot hold is the recording's to note, not the test's
              // to fail: a note at its step, and one line reported for each kind.
              onEncodingFailure: { failure in
                guard _recorderFailuresSaid.isNew(failure) else { return }
                report(
                  "note: a test store's recorder could not hold a value, and the test runs as it did: \(failure)"
                )
              },
              onStop: { message in
                report(
                  "note: a test store's recorder stopped, and the test runs as it did: \(message)")
              }))
        )
      } catch ActionLogError.fileExists where attempt < 1_000 {
        attempt += 1
      }
    }
  }
}

/// A test store's recording: notes its failures, and at the end keeps it, checks that it
/// replays, or deletes it.
final class TestStoreRecordingHandle<R: Reducer>: _TestStoreRecordingHandle, @unchecked Sendable
where R.State: Equatable {
  // NB: Unchecked: the test store drives it from one test; `failures` is behind a lock.
  let url: URL
  let recorder: RecorderOf<R>
  let reducer: R
  let feature: String
  let dependencies: DependencyValues
  let recording: TestStoreRecording
  /// Says a line to the person running the tests.
  let report: @Sendable (String) -> Void
  private let failures = LockIsolated(0)

  init(
    url: URL, recorder: RecorderOf<R>, reducer: R, feature: String,
    dependencies: DependencyValues, recording: TestStoreRecording,
    report: @escaping @Sendable (String) -> Void
  ) {
    self.report = report
    self.url = url
    self.recorder = recorder
    self.reducer = reducer
    self.feature = feature
    self.dependencies = dependencies
    self.recording = recording
  }

  func failed(_ message: String) {
    let isFirst = self.failures.withValue {
      $0 += 1
      return $0 == 1
    }
    self.recorder.note("✘ " + message)
    // NB: Written out now: a test that crashes after this failure still leaves it.
    try? self.recorder.flush()
    guard isFirst else { return }
    self.report(_TestStoreRecorderNotes.whereTheRunIs(self.url))
  }

  func finish() -> String? {
    do {
      try self.recorder.close()
    } catch {
      return "The test store could not finish its recording \(self.url.path): \(error)"
    }
    let failed = self.failures.value > 0
    var failure: String?
    if self.recording.checksReplay {
      failure = self.replayFailure()
    }
    if !failed, failure == nil, !self.recording.keepsPassingRuns {
      try? FileManager.default.removeItem(at: self.url)
    }
    return failure
  }

  /// Why the recording does not replay, or `nil` when it does: its actions, decoded from the
  /// file, re-run through the reducer from the decoded initial state, with the recorded
  /// dependency values and the test's others.
  private func replayFailure() -> String? {
    do {
      let recording = try Recording(contentsOf: self.url)
      let divergence = try withDependencies {
        $0 = self.dependencies
      } operation: {
        try Timeline(
          recording: recording, reducer: _ReflectedReducer(self.reducer), feature: self.feature,
          schema: .of(R.State.self)
        )
        .verify()
      }
      guard let divergence else { return nil }
      return """
        The test store's run does not replay from its recording \(_TestStoreRecorderNotes.relativePath(self.url)): \
        \(divergence)
        """
    } catch let error as ActionLogError {
      if case let .actionNotRecorded(seq, note) = error {
        // NB: A value the recorder could not hold is the recording's limit, not a divergence:
        // said once, and the test's result is unchanged.
        self.sayOnce(
          about: "\(self.url.path)#\(seq)",
          "note: the run recorded in \(_TestStoreRecorderNotes.relativePath(self.url)) is checked for replay up to step \(seq - 1) only: action \(seq) was not recorded (\(note))"
        )
        return nil
      }
      if case .notRebuildable = error {
        // NB: What the feature's types cannot give back is theirs to say, not the test's:
        // said once, on standard error, and the test's result is unchanged.
        self.sayOnce(
          about: recordedTypeName(R.State.self),
          "note: the runs of test stores of \(recordedTypeName(R.State.self)) are not checked for replay: \(error)"
        )
        return nil
      }
      return Self.failure(self.url, error)
    } catch {
      return Self.failure(self.url, error)
    }
  }

  private static func failure(_ url: URL, _ error: any Error) -> String {
    "The test store's run does not replay from its recording \(_TestStoreRecorderNotes.relativePath(url)): \(error)"
  }

  private func sayOnce(about subject: String, _ text: String) {
    let isNew = _saidOnce.withValue { $0.insert(subject).inserted }
    if isNew { self.report(text) }
  }

}

/// What the test stores' recordings said once.
private let _saidOnce = LockIsolated<Set<String>>([])

/// What a test store's recording says beside a failing test.
public enum _TestStoreRecorderNotes {
  /// Where a failing test's run is recorded, and how to open it: what a person running the
  /// tests reads beside the first failure of a test store.
  public static func whereTheRunIs(_ url: URL) -> String {
    let path = Self.relativePath(url)
    return """
      The run so far is recorded in \(path): step through it, the failures noted at their \
      steps, with
        replay \(path)
      or open it in a browser with
        replay html \(path)
      """
  }

  /// `url`'s path from the current folder when it is inside it.
  static func relativePath(_ url: URL) -> String {
    let current = FileManager.default.currentDirectoryPath + "/"
    return url.path.hasPrefix(current) ? String(url.path.dropFirst(current.count)) : url.path
  }
}
