#if !_runtime(_ObjC)
  import Foundation
  import IssueReporting

  // XCTest on Linux has no expected failures. TCA's tests of failures (`TestStoreFailureTests`,
  // `TestStoreNonExhaustiveTests`) say which failure they expect with `XCTExpectFailure`, as on
  // Apple platforms: these give them the same meaning for failures reported through
  // IssueReporting (a test store's, `reportIssue`), which is where this package's failures go.
  // A failure XCTest records itself (`XCTAssertEqual`) is not seen here, and stays a failure.

  /// A failure an expectation of ``XCTExpectFailure(_:enabled:strict:issueMatcher:)`` is shown,
  /// as XCTest describes it on Apple platforms.
  public struct XCTIssue: Sendable, CustomStringConvertible {
    /// `failed - ` and the failure's message, as XCTest words a failure on one line.
    public var compactDescription: String
    /// Where the failure was reported.
    public var sourceCodeContext: XCTSourceCodeContext

    public var description: String { self.compactDescription }
  }

  /// Where an ``XCTIssue`` was reported.
  public struct XCTSourceCodeContext: Sendable {
    public var location: XCTSourceCodeLocation?
  }

  /// A file and line.
  public struct XCTSourceCodeLocation: Sendable {
    public var fileURL: URL
    public var lineNumber: Int
  }

  /// Expects the rest of the running XCTest test to report failures that `issueMatcher` accepts
  /// (any failure, without one): those do not fail the test, and when `strict` (the default)
  /// and none came by the end of the test, that fails it.
  ///
  /// Needs the test target to link `ComposableArchitectureTesting`, which tells when an XCTest
  /// test ends; without it, the expectation is reported as a failure at once.
  public func XCTExpectFailure(
    _ failureReason: String? = nil,
    enabled: Bool? = nil,
    strict: Bool? = nil,
    file: StaticString = #filePath,
    line: UInt = #line,
    issueMatcher: ((XCTIssue) -> Bool)? = nil
  ) {
    guard enabled != false else { return }
    let expectation = ExpectedFailure(
      reason: failureReason, strict: strict ?? true, matcher: issueMatcher, file: file, line: line)
    ExpectedFailures.shared.expectForRestOfTest(expectation)
  }

  /// Expects `failingBlock` to report failures that `issueMatcher` accepts (any failure, without
  /// one): those do not fail the test, and when `strict` (the default) and none came, that does.
  @discardableResult
  public func XCTExpectFailure<R>(
    _ failureReason: String? = nil,
    enabled: Bool? = nil,
    strict: Bool? = nil,
    file: StaticString = #filePath,
    line: UInt = #line,
    failingBlock: () throws -> R,
    issueMatcher: ((XCTIssue) -> Bool)? = nil
  ) rethrows -> R {
    guard enabled != false else { return try failingBlock() }
    let expectation = ExpectedFailure(
      reason: failureReason, strict: strict ?? true, matcher: issueMatcher, file: file, line: line)
    let base = IssueReporters.current
    defer { expectation.reportIfUnmet(to: base) }
    return try withIssueReporters([ExpectingReporter(base: base, expectations: [expectation])]) {
      try failingBlock()
    }
  }

  /// One call of `XCTExpectFailure`: what it accepts, and whether a failure met it.
  final class ExpectedFailure: @unchecked Sendable {
    // NB: Unchecked: `met` is read and written holding `lock`; the rest never changes.
    let reason: String?
    let strict: Bool
    let matcher: ((XCTIssue) -> Bool)?
    let file: StaticString
    let line: UInt
    private let lock = NSLock()
    private var met = false

    init(
      reason: String?, strict: Bool, matcher: ((XCTIssue) -> Bool)?,
      file: StaticString, line: UInt
    ) {
      self.reason = reason
      self.strict = strict
      self.matcher = matcher
      self.file = file
      self.line = line
    }

    /// Whether it accepts `issue`, marking it met when it does.
    func accepts(_ issue: XCTIssue) -> Bool {
      guard self.matcher?(issue) ?? true else { return false }
      self.lock.withLock { self.met = true }
      return true
    }

    /// Reports to `reporters` that no failure came, when it is strict and none did.
    func reportIfUnmet(to reporters: [any IssueReporter]) {
      guard self.strict, !self.lock.withLock({ self.met }) else { return }
      let message =
        "Expected failure"
        + (self.reason.map { " (\($0))" } ?? "")
        + (self.matcher == nil
          ? ", but none was recorded."
          : ", but no failure recorded matched the issue matcher.")
      for reporter in reporters {
        reporter.reportIssue(
          message, severity: .error, fileID: self.file, filePath: self.file, line: self.line,
          column: 0)
      }
    }
  }

  /// A reporter that lets failures an expectation accepts through as expected, and the rest
  /// to the reporters it stands in front of.
  struct ExpectingReporter: IssueReporter {
    let base: [any IssueReporter]
    let expectations: [ExpectedFailure]

    func reportIssue(
      _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
      filePath: StaticString, line: UInt, column: UInt
    ) {
      let text = message()
      if severity == .error, self.isExpected(text, filePath: filePath, line: line) { return }
      for reporter in self.base {
        reporter.reportIssue(
          text, severity: severity, fileID: fileID, filePath: filePath, line: line,
          column: column)
      }
    }

    func reportIssue(
      _ error: any Error, _ message: @autoclosure () -> String?, fileID: StaticString,
      filePath: StaticString, line: UInt, column: UInt
    ) {
      let text = message()
      let described = "Caught error: \(error)" + (text.map { ": \($0)" } ?? "")
      if self.isExpected(described, filePath: filePath, line: line) { return }
      for reporter in self.base {
        reporter.reportIssue(
          error, text, fileID: fileID, filePath: filePath, line: line, column: column)
      }
    }

    func expectIssue(
      _ error: any Error, _ message: @autoclosure () -> String?, fileID: StaticString,
      filePath: StaticString, line: UInt, column: UInt
    ) {
      let text = message()
      for reporter in self.base {
        reporter.expectIssue(
          error, text, fileID: fileID, filePath: filePath, line: line, column: column)
      }
    }

    func expectIssue(
      _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
      line: UInt, column: UInt
    ) {
      let text = message()
      for reporter in self.base {
        reporter.expectIssue(
          text, fileID: fileID, filePath: filePath, line: line, column: column)
      }
    }

    private func isExpected(_ message: String?, filePath: StaticString, line: UInt) -> Bool {
      let issue = XCTIssue(
        compactDescription: "failed - " + (message ?? ""),
        sourceCodeContext: XCTSourceCodeContext(
          location: XCTSourceCodeLocation(
            fileURL: URL(fileURLWithPath: "\(filePath)"), lineNumber: Int(line))))
      // NB: The latest expectation first, as XCTest matches them.
      return self.expectations.reversed().contains { $0.accepts(issue) }
    }
  }

  /// The expectations of the running XCTest test, in front of the issue reporters until it ends.
  final class ExpectedFailures: @unchecked Sendable {
    // NB: Unchecked: every field is read and written holding `lock`.
    static let shared = ExpectedFailures()
    private let lock = NSLock()
    private var expectations: [ExpectedFailure] = []
    private var replaced: [any IssueReporter]?

    func expectForRestOfTest(_ expectation: ExpectedFailure) {
      let first = self.lock.withLock {
        self.expectations.append(expectation)
        return self.replaced == nil
      }
      guard first else {
        self.install()
        return
      }
      let ending = _XCTestHooksLookup.installation?._addTeardownBlock {
        ExpectedFailures.shared.end()
      }
      guard ending == true else {
        self.lock.withLock { self.expectations.removeAll() }
        _reportTestFailure(
          """
          XCTExpectFailure needs to know when the test ends, and outside an XCTest test, or \
          without "ComposableArchitectureTesting" linked into the test target, it cannot: add \
          that product to the test target's dependencies.
          """,
          fileID: expectation.file, filePath: expectation.file, line: expectation.line, column: 0)
        return
      }
      self.install()
    }

    /// Puts a reporter of the expectations so far in front of the reporters.
    private func install() {
      self.lock.withLock {
        let base = self.replaced ?? IssueReporters.current
        self.replaced = base
        IssueReporters.current = [
          ExpectingReporter(base: base, expectations: self.expectations)
        ]
      }
    }

    /// The test ended: restores the reporters, and reports the strict expectations unmet.
    func end() {
      let (expectations, base) = self.lock.withLock {
        defer {
          self.expectations = []
          self.replaced = nil
        }
        return (self.expectations, self.replaced)
      }
      guard let base else { return }
      IssueReporters.current = base
      for expectation in expectations { expectation.reportIfUnmet(to: base) }
    }
  }
#endif

/// What the core needs of XCTest: `ComposableArchitectureTesting` installs it (it links the test
/// frameworks), found at run time so that this module does not link XCTest into apps.
public protocol _XCTestHooks {
  /// Runs `block` when the running XCTest test tears down; `false` when no XCTest test runs.
  static func _addTeardownBlock(_ block: @escaping @Sendable () -> Void) -> Bool
}

enum _XCTestHooksLookup {
  /// `ComposableArchitectureTesting._XCTestHooksInstallation`, when the process links the
  /// testing module; a test pins the name.
  nonisolated(unsafe) static let installation: (any _XCTestHooks.Type)? = {
    func length(_ part: String) -> String { "\(part.utf8.count)\(part)" }
    let mangled = length("ComposableArchitectureTesting") + length("_XCTestHooksInstallation") + "V"
    return _typeByName(mangled) as? any _XCTestHooks.Type
  }()
}
