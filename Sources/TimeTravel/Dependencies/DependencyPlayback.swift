import ActionLog
@_spi(Internals) import ComposableArchitecture
import ConcurrencyExtras
import IssueReporting

/// Answers a replayed reducer's dependency reads with the values recorded for one action, and
/// notes reads beyond them.
public final class DependencyPlayback: @unchecked Sendable {
  // NB: Unchecked: every access holds the lock. A plain mutex, not `LockIsolated`: a batch
  // takes it for every step and every read.
  private let lock = Lock()
  private var remaining: [String: ArraySlice<String>]
  private var overrunCounts: [String: Int] = [:]

  /// Prepares to answer with `captured`.
  public init(_ captured: CapturedValues) {
    self.remaining = captured.values.mapValues { $0[...] }
  }

  /// Answers with `captured` from now on, forgetting what was read: one playback for the steps
  /// of a batch, each with its own values.
  func reset(_ captured: CapturedValues) {
    self.lock.withLock {
      self.remaining = captured.values.isEmpty ? [:] : captured.values.mapValues { $0[...] }
      if !self.overrunCounts.isEmpty { self.overrunCounts = [:] }
    }
  }

  /// Installs replaying versions of `dependencies` into `values`.
  public func install(_ dependencies: [RecordableDependency], into values: inout DependencyValues) {
    for dependency in dependencies {
      let name = dependency.name
      dependency.replay(&values) { [weak self] in self?.next(name) }
    }
  }

  /// The next recorded value of dependency `name`, or `nil` (an overrun) when none is left.
  func next(_ name: String) -> String? {
    self.lock.withLock {
      if let value = self.remaining[name]?.popFirst() { return value }
      self.overrunCounts[name, default: 0] += 1
      return nil
    }
  }

  /// How many reads of each dependency found no recorded value left: the reducer read more than
  /// it did when it was recorded.
  public var overruns: [String: Int] {
    self.lock.withLock { self.overrunCounts }
  }

  /// How many recorded values of each dependency the reducer did not read.
  public var unread: [String: Int] {
    self.lock.withLock { self.unreadCounts }
  }

  /// ``overruns`` and ``unread`` together, as a step ends.
  var tally: (overruns: [String: Int], unread: [String: Int]) {
    self.lock.withLock { (self.overrunCounts, self.unreadCounts) }
  }

  private var unreadCounts: [String: Int] {
    self.remaining.isEmpty ? [:] : self.remaining.compactMapValues { $0.isEmpty ? nil : $0.count }
  }
}

/// Replaying dependencies installed once for many steps: each reads the playback of the step
/// being replayed, which the replayer sets before the step and clears after it.
final class PlaybackBatch: @unchecked Sendable {
  /// The replayer whose dependencies are installed.
  let owner: AnyObject
  /// The playback of the step running, on the batch's own thread.
  var playback: DependencyPlayback?
  /// One playback for every step of the batch, reset before each.
  let reusedPlayback = DependencyPlayback(CapturedValues())
  /// The issues reporter installed for the whole batch.
  let issues: StepIssues

  init(owner: AnyObject, outside: [any IssueReporter]) {
    self.owner = owner
    self.issues = StepIssues(outside: outside)
  }

  /// The batch the current task replays in, if any.
  @TaskLocal static var current: PlaybackBatch?
}

/// The issue reporter of a batch, installed once for all its steps: what a step's reducer
/// reports is collected as evidence of that step, in order; anything else reported while the
/// batch runs (between steps) goes to the reporters installed around the batch, as it would
/// without it.
final class StepIssues: IssueReporter, @unchecked Sendable {
  // NB: Unchecked: every access holds the lock.
  private let lock = Lock()
  private var collecting = false
  private var reported = false
  /// The reporters installed around the batch.
  let outside: [any IssueReporter]
  /// The collector a step's reports go to, as a replay outside a batch collects them.
  private let collector = IssueCollector()

  init(outside: [any IssueReporter]) {
    self.outside = outside
  }

  /// Starts collecting a step's issues.
  func begin() {
    self.lock.withLock { self.collecting = true }
  }

  /// Stops collecting, and returns the step's issues.
  func end() -> [String] {
    let reported = self.lock.withLock {
      defer { (self.collecting, self.reported) = (false, false) }
      return self.reported
    }
    return reported ? self.collector.take().map(\.replayDescription) : []
  }

  /// Sends an issue to the step's collector while a step runs (noting that it has one), else to
  /// each reporter around the batch.
  private func route(_ report: (any IssueReporter) -> Void) {
    let collecting = self.lock.withLock {
      if self.collecting { self.reported = true }
      return self.collecting
    }
    guard collecting else {
      for reporter in self.outside { report(reporter) }
      return
    }
    report(self.collector)
  }

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    self.route {
      $0.reportIssue(
        message(), severity: severity, fileID: fileID, filePath: filePath, line: line,
        column: column)
    }
  }

  func reportIssue(
    _ error: any Error,
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    self.route {
      $0.reportIssue(
        error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  func expectIssue(
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    self.route {
      $0.expectIssue(message(), fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  func expectIssue(
    _ error: any Error,
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    self.route {
      $0.expectIssue(
        error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }
}

extension IssueCollector.Issue {
  /// The issue as a replayed step reports it: its message and where it was reported.
  var replayDescription: String {
    "\(self.message ?? "an issue") (\(self.fileID):\(self.line))"
  }
}
