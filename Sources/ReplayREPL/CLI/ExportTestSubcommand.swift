import ActionLog
import ArgumentParser
import Foundation

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
        guard !self.name.isEmpty,
          self.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        else {
          throw CommandFailure(
            "--name takes letters, digits, - and _: \"\(self.name)\" has others.", code: 2)
        }
        let recording = try self.recording.open()
        guard recording.ending == .clean else {
          throw CommandFailure(
            "the recording is \(recording.ending): a regression test needs a whole one.", code: 1
          )
        }
        let header = recording.header
        let parts = header.stateType.split(separator: ".").map(String.init)
        guard parts.count >= 3 else {
          throw CommandFailure(
            """
            cannot tell the module and reducer from the state type \(header.stateType): give \
            --reducer.
            """,
            code: 2
          )
        }
        let module = parts[0]
        let reducer = self.reducer ?? parts[1..<(parts.count - 1)].joined(separator: ".") + "()"
        let source = URL(fileURLWithPath: self.recording.file).standardizedFileURL
        let destination = URL(fileURLWithPath: self.recordings).standardizedFileURL
          .appendingPathComponent("\(self.name).actionlog")
        let testFolder = URL(fileURLWithPath: self.tests).standardizedFileURL
        let testFile = testFolder.appendingPathComponent(
          "\(Self.typeName(self.name))ReplayTests.swift")
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
        let test = Self.test(
          name: self.name, feature: header.feature, module: module, reducer: reducer,
          recording: Self.relativePath(from: testFolder, to: destination)
        )
        try Data(test.utf8).write(to: testFile)
        print("\(destination.path)\n\(testFile.path)")
      }
    }

    /// `checkout-crash` → `CheckoutCrash`.
    static func typeName(_ name: String) -> String {
      name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The path of `file` from `folder`: `../../Recordings/x.actionlog`.
    static func relativePath(from folder: URL, to file: URL) -> [String] {
      let from = folder.pathComponents
      let to = file.pathComponents
      let shared = zip(from, to).prefix { $0 == $1 }.count
      return Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)
    }

    /// The test file.
    static func test(
      name: String, feature: String, module: String, reducer: String, recording: [String]
    ) -> String {
      let type = Self.typeName(name)
      let function = type.prefix(1).lowercased() + type.dropFirst()
      let path = recording.map { "\"\($0)\"" }.joined(separator: ", ")
      return """
        // A regression test made by `replay export-test` from the recording \(name).actionlog.
        // It fails, with the first differing step and the diff, when the reducer no longer does
        // what the recording shows. Its target depends on ReplayTesting and \(module).

        import \(module)
        import Foundation
        import ReplayTesting
        import Testing

        @Test func \(function)ReplaysAsRecorded() throws {
          let recording = [\(path)].reduce(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          ) {
            $0.appendingPathComponent($1)
          }
          try assertReplay(recording, feature: "\(feature)") {
            \(reducer)
          }
        }

        """
    }
  }
}
