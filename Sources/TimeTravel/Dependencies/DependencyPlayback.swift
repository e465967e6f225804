import ActionLog
@_spi(Internals) import ComposableArchitecture
import ConcurrencyExtras
import IssueReporting

/// Answers a replayed reducer's dependency reads with the values recorded for one action, and
/// notes reads beyond them.
public final class DependencyPlayback: Sendable {
  private let storage:
    LockIsolated<(remaining: [String: ArraySlice<String>], overruns: [String: Int])>

  /// Prepares to answer with `captured`.
  public init(_ captured: CapturedValues) {
    self.storage = LockIsolated((captured.values.mapValues { $0[...] }, [:]))
  }

  /// Answers with `captured` from now on, forgetting what was read: one playback for the steps
  /// of a batch, each with its own values.
  func reset(_ captured: CapturedValues) {
    self.storage.withValue {
      $0.remaining = captured.values.isEmpty ? [:] : captured.values.mapValues { $0[...] }
      if !$0.overruns.isEmpty { $0.overruns = [:] }
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
    self.storage.withValue {
      if let value = $0.remaining[name]?.popFirst() { return value }
      $0.overruns[name, default: 0] += 1
      return nil
    }
  }

  /// How many reads of each dependency found no recorded value left: the reducer read more than
  /// it did when it was recorded.
  public var overruns: [String: Int] {
    self.storage.value.overruns
  }

  /// How many recorded values of each dependency the reducer did not read.
  public var unread: [String: Int] {
    self.storage.value.remaining.compactMapValues { $0.isEmpty ? nil : $0.count }
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
  /// One collector of the issues a step reports, taken after each.
  let issues = IssueCollector()
  /// The reporters installed for a step: the collector.
  lazy var reporters: [any IssueReporter] = [self.issues]

  init(owner: AnyObject) {
    self.owner = owner
  }

  /// The batch the current task replays in, if any.
  @TaskLocal static var current: PlaybackBatch?
}
