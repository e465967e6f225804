@_spi(Internals) import ComposableArchitecture
import XCTest

/// `XCTExpectFailure` under XCTest on Linux, as TCA's tests of failures use it: a failure a
/// test store reports, and that an expectation accepts, does not fail the test; an expectation
/// no failure met does.
@MainActor
final class ExpectedFailureXCTests: XCTestCase {
  @Reducer
  struct Counter {
    struct State: Equatable { var count = 0 }
    enum Action { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  // NB: Were the expectation not to take the failure, this test would fail with it.
  func testAFailureTheRestOfTheTestExpectsDoesNotFailIt() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    XCTExpectFailure {
      $0.compactDescription.hasPrefix("failed - A state change does not match expectation")
    }
    await store.send(.increment) { $0.count = 2 }
  }

  // NB: Both failures read the same: each expectation takes one, the latest first, as XCTest's.
  func testEachExpectationTakesTheFailureAfterIt() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { _, action in action ? .send(false) : .none }
    }
    XCTExpectFailure()
    await store.send(true) { $0 = 0 }
    XCTExpectFailure()
    await store.receive(false) { $0 = 0 }
  }

  func testAFailureInTheBlockIsExpected() async {
    XCTExpectFailure {
      reportIssue("Something went wrong")
    } issueMatcher: {
      $0.compactDescription == "failed - Something went wrong"
        && $0.sourceCodeContext.location?.fileURL.lastPathComponent
          == "ExpectedFailureXCTests.swift"
    }
  }

  func testAFailureTheMatcherRefusesStillFails() {
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      XCTExpectFailure {
        reportIssue("Something else")
      } issueMatcher: {
        $0.compactDescription.hasSuffix("Something went wrong")
      }
    }
    XCTAssertEqual(
      collector.issues.compactMap(\.message),
      [
        "Something else",
        "Expected failure, but no failure recorded matched the issue matcher.",
      ])
  }

  func testABlockWithoutAFailureFailsUnlessNotStrict() {
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      XCTExpectFailure("a bug fixed since") {}
      XCTExpectFailure(strict: false) {}
      XCTExpectFailure(enabled: false) {}
    }
    XCTAssertEqual(
      collector.issues.compactMap(\.message),
      ["Expected failure (a bug fixed since), but none was recorded."])
  }

  /// A test of its own, run here, whose expectation no failure meets: at its end, that is
  /// reported (here to a collector, so that the log shows no failure of a test that passes).
  final class ExpectsAFailureThatNeverComes: XCTestCase {}

  func testAnExpectationNoFailureMetIsReportedAtTheEndOfItsTest() {
    let collector = IssueCollector()
    let inner = ExpectsAFailureThatNeverComes(name: "expectsAFailure") { _ in
      XCTExpectFailure("the bug") { $0.compactDescription.contains("bug") }
      XCTAssertTrue(collector.issues.isEmpty, "reported before the end of the test")
    }
    withIssueReporters([collector]) {
      inner.run()
    }
    XCTAssertEqual(
      collector.issues.compactMap(\.message),
      ["Expected failure (the bug), but no failure recorded matched the issue matcher."])
    XCTAssertEqual(inner.testRun?.failureCount, 0)
  }
}
