import ComposableArchitecture
import Foundation
import TimeTravel

/// What records a test store's run, installed by this module: the test store (in the core,
/// which knows nothing of recordings) finds it at run time by its name, and it records through
/// `TimeTravel`, saying what a person running the tests should read (where a failing test's run
/// is, a value the recorder could not hold) on standard error, beside the test's output.
public struct _TestStoreRecorderInstallation: _TestStoreRecorderMaking {
  public static func _record<R: Reducer>(
    _ reducer: R, initialState: R.State, dependencies: DependencyValues,
    recording: TestStoreRecording, testName: String?, filePath: String, line: UInt
  ) -> _TestStoreRecorded<R.State, R.Action>? where R.State: Equatable {
    _TestStoreRecorder._record(
      reducer, initialState: initialState, dependencies: dependencies, recording: recording,
      testName: testName, filePath: filePath, line: line,
      report: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
  }
}
