import ConcurrencyExtras
import IssueReporting

/// Collects the issues reported while it is installed with `withIssueReporters([collector])`,
/// in order, with where each was reported: for the layers above the core (a replay keeps the
/// issues a reducer reports as evidence) and for their tests.
@_spi(Internals) public final class IssueCollector: IssueReporter, Sendable {
  /// An issue, as reported.
  public struct Issue: Sendable, Equatable {
    /// The message, if the issue had one.
    public let message: String?
    /// The `#fileID` of the line that reported it.
    public let fileID: String
    /// The line that reported it.
    public let line: UInt
  }

  private let storage = LockIsolated<[Issue]>([])

  public init() {}

  /// The issues reported so far.
  public var issues: [Issue] { self.storage.value }

  /// The issues reported since the last take, which are let go: one collector for many steps,
  /// each taking its own.
  public func take() -> [Issue] {
    self.storage.withValue { issues in
      defer { issues.removeAll(keepingCapacity: true) }
      return issues
    }
  }

  public func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let issue = Issue(message: message(), fileID: "\(fileID)", line: line)
    self.storage.withValue { $0.append(issue) }
  }
}
