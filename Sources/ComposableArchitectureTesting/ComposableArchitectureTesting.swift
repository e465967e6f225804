// The product a test target depends on, so that `TestStore` and `assertReplay` failures fail the
// test in Swift Testing and XCTest, and so that a test store records its run
// (`_TestStoreRecorderInstallation`).
//
// IssueReporting reaches the test frameworks through `IssueReportingTestSupport`, which it looks
// up at run time; linking it is this module's job. An app's targets must not depend on this
// module: it brings the test frameworks with it.
@_exported import ComposableArchitecture
import IssueReportingTestSupport
