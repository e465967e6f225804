import ActionLog
import ComposableArchitecture
import CustomDump

/// A feature that `replay` can open: its identifier (the `feature` a recording's header names)
/// and how to make its reducer.
///
/// Build your own `replay` with your features:
///
/// ```swift
/// let features = [
///   ReplayFeature("todos") { Todos() },
///   ReplayFeature("settings") { Settings() },
/// ]
/// ```
public struct ReplayFeature: Sendable {
  /// The identifier recordings of this feature carry in their header.
  public let id: String
  private let makeSession: @Sendable (Recording) throws -> any TimelineSession

  /// Registers a feature.
  ///
  /// - Parameters:
  ///   - id: The identifier its recordings carry (the `feature:` given to the `Recorder`).
  ///   - dependencies: The dependencies its recordings captured.
  ///   - reducer: Makes the feature's reducer, without its recording modifier.
  public init<R: Reducer & Sendable>(
    _ id: String,
    dependencies: [RecordableDependency] = RecordableDependency.standard,
    reducer: @escaping @Sendable () -> R
  ) where R.State: Decodable & Equatable, R.Action: Decodable {
    self.id = id
    self.makeSession = { recording in
      try Timeline(recording: recording, reducer: reducer(), feature: id, dependencies: dependencies)
    }
  }

  /// Opens a recording of this feature.
  public func open(_ recording: Recording) throws -> any TimelineSession {
    try self.makeSession(recording)
  }
}

/// A timeline whose reducer's types are hidden: what a command line needs of it.
public protocol TimelineSession: AnyObject {
  /// The recording.
  var recording: Recording { get }
  /// The current step.
  var position: Int { get }
  /// The last step.
  var count: Int { get }
  /// Moves to a step.
  func goto(_ step: Int) throws
  /// The state at the current step, or the value at a path in it, dumped.
  func dumpState(at path: StatePath?) throws -> String
  /// The action that led to a step, dumped.
  func dumpAction(at step: Int) throws -> String
  /// What changed between two steps, or `nil` when nothing did.
  func diff(from: Int, to: Int) throws -> String?
  /// The first checkpoint today's reducer does not reproduce, or `nil`.
  func verify(isCancelled: () -> Bool) throws -> Divergence?
}

extension Timeline: TimelineSession {
  public func dumpState(at path: StatePath?) throws -> String {
    guard let path, !path.components.isEmpty else { return String(customDumping: self.state) }
    return try path.dump(in: self.state)
  }

  public func dumpAction(at step: Int) throws -> String {
    String(customDumping: try self.action(at: step).action)
  }
}
