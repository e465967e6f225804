import Dependencies
import Foundation
import IssueReporting

/// Whether and where a ``TestStore`` records its run, as the app's store records with a
/// recorder: every `send` and `receive`, the actions effects fed back, the dependency values
/// read, and each failed assertion as a note at its step. The recording opens in `replay`, which
/// needs no feature code, and in `replay html`.
///
/// By default a test store keeps its recording when the test fails, and deletes it when it
/// passes. The environment chooses otherwise for every test store:
/// `COMPOSABLE_REPLAY_TEST_RECORDINGS` is `off`, `on-failure` (the default) or `every-run`, which
/// keeps every recording and checks at the end of the test that it replays;
/// `COMPOSABLE_REPLAY_TEST_RECORDINGS_DIR` is the folder. A test store's `recording:` argument
/// chooses for that store.
///
/// Recording needs the test target to link `TimeTravel` (`ComposableArchitectureTesting` does).
public struct TestStoreRecording: Sendable, Equatable {
  enum Mode: Sendable, Equatable {
    case off, onFailure, everyRun
  }

  let mode: Mode
  /// The folder; by default `.build/test-recordings` of the package the test is in, or the
  /// temporary folder's `test-recordings`.
  public let directory: URL?

  /// Records nothing.
  public static let off = Self(mode: .off, directory: nil)
  /// Keeps the run when the test fails.
  public static let onFailure = Self(mode: .onFailure, directory: nil)
  /// Keeps every run, and checks at the end of the test that it replays: the recorded actions,
  /// decoded from the file and re-run through the reducer from the decoded initial state, give
  /// the recorded state at every step.
  public static let everyRun = Self(mode: .everyRun, directory: nil)

  /// Keeps the run when the test fails, in `directory`.
  public static func onFailure(in directory: URL) -> Self {
    Self(mode: .onFailure, directory: directory)
  }

  /// Keeps every run in `directory`, checking that it replays.
  public static func everyRun(in directory: URL) -> Self {
    Self(mode: .everyRun, directory: directory)
  }

  /// Whether the store checks at the end of the test that its run replays.
  public var checksReplay: Bool { self.mode == .everyRun }
  /// Whether the store keeps a recording of a test that passes.
  public var keepsPassingRuns: Bool { self.mode == .everyRun }
  /// Whether the store records.
  public var isOn: Bool { self.mode != .off }

  /// What the environment says, `on-failure` when it says nothing.
  public static var fromEnvironment: Self {
    let environment = ProcessInfo.processInfo.environment
    let directory = environment["COMPOSABLE_REPLAY_TEST_RECORDINGS_DIR"].flatMap {
      $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
    }
    switch environment["COMPOSABLE_REPLAY_TEST_RECORDINGS"]?.lowercased() {
    case "off", "0", "no", "false": return .off
    case "every-run", "everyrun", "always": return Self(mode: .everyRun, directory: directory)
    default: return Self(mode: .onFailure, directory: directory)
    }
  }
}

/// What a test store records with: the reducer that records, and the recording's handle.
public struct _TestStoreRecorded<State, Action> {
  public let reduce: (inout State, Action) -> Effect<Action>
  public let recording: any _TestStoreRecordingHandle

  public init(
    reduce: @escaping (inout State, Action) -> Effect<Action>,
    recording: any _TestStoreRecordingHandle
  ) {
    self.reduce = reduce
    self.recording = recording
  }
}

/// A test store's recording, as the test store drives it.
public protocol _TestStoreRecordingHandle: AnyObject, Sendable {
  /// Notes a failed assertion after the latest step, writes out what was recorded so far, and
  /// says (once a store, on standard error, beside the failure) where the recording is and how
  /// to open it.
  func failed(_ message: String)
  /// The test store is done: ends the recording, checks that it replays when asked, and deletes
  /// it when nothing failed and it is not kept. Returns a failure to report, or `nil`.
  func finish() -> String?
}

/// Makes a test store's recording: `ComposableArchitectureTesting` installs it (recording
/// through `TimeTravel`), found at run time so that this module knows nothing of recordings.
public protocol _TestStoreRecorderMaking {
  static func _record<R: Reducer>(
    _ reducer: R, initialState: R.State, dependencies: DependencyValues,
    recording: TestStoreRecording, testName: String?, filePath: String, line: UInt
  ) -> _TestStoreRecorded<R.State, R.Action>? where R.State: Equatable
}

enum _TestStoreRecorders {
  /// `ComposableArchitectureTesting._TestStoreRecorderInstallation`, when the process links the
  /// testing module (a test target that depends on it); a test pins the name.
  static let maker: (any _TestStoreRecorderMaking.Type)? = {
    func length(_ part: String) -> String { "\(part.utf8.count)\(part)" }
    let mangled =
      length("ComposableArchitectureTesting") + length("_TestStoreRecorderInstallation") + "V"
    return _typeByName(mangled) as? any _TestStoreRecorderMaking.Type
  }()

  /// The running test's name as Swift Testing gives it, or `nil` (XCTest, outside a test).
  static var testName: String? {
    guard case let .swiftTesting(testing?) = TestContext.current else { return nil }
    return String(describing: testing.test.id.rawValue)
  }
}

/// A reducer made of a function: what a test store runs when it records.
struct _FunctionReducer<State, Action>: Reducer {
  let body: (inout State, Action) -> Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.body(&state, action)
  }
}
