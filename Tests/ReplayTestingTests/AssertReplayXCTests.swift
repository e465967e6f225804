import ComposableArchitecture
import ExampleFeatures
import IssueReporting
import ReplayTesting
import TestSupport
import XCTest

/// `assertReplay` in XCTest: the same checks, reported through XCTest.
final class AssertReplayXCTests: XCTestCase {
  func testPassesOnEveryBundledRecording() throws {
    try assertReplay(bundledRecording("counter")) { CounterFeature() }
    try assertReplay(bundledRecording("todos")) { Todos() }
    try assertReplay(bundledRecording("songs")) { SongsApp() }
  }

  func testFailsAtTheFirstChangedCheckpointWithTheDiff() throws {
    let reporter = CollectingReporter()
    try withIssueReporters([reporter]) {
      try assertReplay(bundledRecording("counter"), rerecord: "Tools/record-samples") {
        CounterWithABug()
      }
    }
    XCTAssertEqual(
      reporter.messages.value,
      ["ReplayTestingTests/AssertReplayXCTests.swift:18: \(counterBugMessage)"]
    )
  }
}

/// Collects the issues reported, in place of XCTest's failure reporter.
final class CollectingReporter: IssueReporter, Sendable {
  let messages = LockIsolated<[String]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = message() ?? ""
    self.messages.withValue { $0.append("\(fileID):\(line): \(text)") }
  }
}
