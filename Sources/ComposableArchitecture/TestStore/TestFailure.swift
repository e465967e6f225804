#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Foundation
import IssueReporting

/// Reports a test failure (of `TestStore`, `assertReplay`) through IssueReporting, and makes sure
/// it fails the test.
///
/// IssueReporting reaches Swift Testing and XCTest through its `IssueReportingTestSupport`
/// library, found at run time. A test binary that does not link it would only print a warning,
/// and the failing test would pass. Rather than that, this stops the test process with the
/// failure and the dependency to add, so that the run fails.
///
/// Test targets get the library with the `ComposableArchitectureTesting` product (or
/// `ReplayTesting`, which brings it).
public func _reportTestFailure(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  if isTesting, !testSupportIsLinked,
    IssueReporters.current.contains(where: { $0 is _DefaultReporter })
  {
    let text = """
      \(fileID):\(line): \(message)

      This test failure cannot reach the test framework: the test binary does not link \
      "IssueReportingTestSupport", and the test would have passed. To fix this, add the \
      "ComposableArchitectureTesting" product of ComposableReplay to the test target's \
      dependencies (or "ReplayTesting", which brings it):

          .product(name: "ComposableArchitectureTesting", package: "ComposableReplay")

      """
    FileHandle.standardError.write(Data(text.utf8))
    fatalError(
      "A test failure could not be reported: link ComposableArchitectureTesting.",
      file: filePath,
      line: line
    )
  }
  reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Whether IssueReporting can reach a test framework: its test support library is in the
/// process, found the way IssueReporting finds it.
private let testSupportIsLinked: Bool = {
  // NB: The mangled name of `IssueReportingTestSupport._recordIssue()`, which IssueReporting
  // looks up to record a Swift Testing issue; the library's XCTest entry points come with it.
  let symbol = "$s25IssueReportingTestSupport07_recordA0ypyF"
  #if os(Linux) || os(Android)
    let handle = dlopen("libIssueReportingTestSupport.so", RTLD_LAZY) ?? dlopen(nil, RTLD_LAZY)
  #else
    let handle = dlopen(nil, RTLD_LAZY)
  #endif
  guard let handle else { return false }
  return dlsym(handle, symbol) != nil
}()
