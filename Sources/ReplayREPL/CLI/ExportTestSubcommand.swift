import ActionLog
import ArgumentParser
import Foundation
import ReplayTestGeneration

extension ReplayCommand {
  /// `replay export-test FILE --name NAME`: a recording as a ready regression test.
  struct ExportTest: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export-test",
      abstract: "Turn a recording into a Swift Testing regression test that calls assertReplay.",
      discussion: """
        Copies the recording to RECORDINGS/NAME.actionlog and writes TESTS/NAMEReplayTests.swift, \
        a test that re-runs it with today's reducer. Put TESTS in a test target that depends on \
        ReplayTesting and on the feature's module, for example in Package.swift:

          .testTarget(name: "RecordingTests", dependencies: ["ReplayTesting", "MyFeature"])

        The reducer is named after the recording's state type (MyFeature.Todos.State: Todos()); \
        give another with --reducer.

        Example:
          $ replay export-test crash.actionlog --name checkout-crash \\
              --tests Tests/RecordingTests
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(help: "The name of the recording and the test (letters, digits, - and _).")
    var name: String

    @Option(help: "Where the recording is copied.")
    var recordings = "Recordings"

    @Option(help: "Where the test file is written.")
    var tests = "Tests/RecordingTests"

    @Option(help: "The reducer to replay with, as Swift (default: TYPE() from the state type).")
    var reducer: String?

    @Flag(help: "Replace an existing recording or test of that name.")
    var force = false

    func run() throws {
      try self.reportingFailures {
        let recording = try self.recording.open()
        guard recording.ending == .clean else {
          throw CommandFailure(
            "the recording is \(recording.ending): a regression test needs a whole one.", code: 1
          )
        }
        let source = URL(fileURLWithPath: self.recording.file).standardizedFileURL
        let destination = URL(fileURLWithPath: self.recordings).standardizedFileURL
          .appendingPathComponent("\(self.name).actionlog")
        let testFolder = URL(fileURLWithPath: self.tests).standardizedFileURL
        var test: RegressionTestSource
        do {
          test = try RegressionTestSource(
            name: self.name, header: recording.header, reducer: self.reducer,
            recordingPath: RegressionTestSource.relativePath(from: testFolder, to: destination)
          )
        } catch let error as RegressionTestSourceError {
          switch error {
          case .invalidName:
            throw CommandFailure(
              "--name takes letters, digits, - and _: \"\(self.name)\" has others.", code: 2)
          case .unknownModule(let stateType):
            throw CommandFailure(
              """
              cannot tell the module and reducer from the state type \(stateType): give \
              --reducer.
              """,
              code: 2
            )
          }
        }
        test.callSites = RegressionTestSource.callSites(of: recording)
        let testFile = testFolder.appendingPathComponent(test.fileName)
        let manager = FileManager.default
        for file in [destination, testFile]
        where file != source && manager.fileExists(atPath: file.path) && !self.force {
          throw CommandFailure("\(file.path) exists: give --force to replace it.", code: 2)
        }
        try manager.createDirectory(
          at: destination.deletingLastPathComponent(), withIntermediateDirectories: true
        )
        try manager.createDirectory(at: testFolder, withIntermediateDirectories: true)
        if destination != source {
          _ = try? manager.removeItem(at: destination)
          try manager.copyItem(at: source, to: destination)
        }
        try Data(test.text.utf8).write(to: testFile)
        print("\(destination.path)\n\(testFile.path)")
      }
    }
  }
}
