@_spi(Internals) import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
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
    let reporter = IssueCollector()
    var line: UInt = 0
    try withIssueReporters([reporter]) {
      line = #line + 1
      try assertReplay(bundledRecording("counter"), rerecord: "Tools/record-samples") {
        CounterWithABug()
      }
    }
    XCTAssertEqual(
      reporter.issues.map { "\($0.fileID):\($0.line): \($0.message ?? "")" },
      ["ReplayTestingTests/AssertReplayXCTests.swift:\(line): \(counterBugMessage)"]
    )
  }
}
