import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing

/// The counter with a bug injected: the tenth increment adds two.
struct CounterWithABug: Reducer {
  func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    let effect = CounterFeature().reduce(into: &state, action: action)
    if case .incrementButtonTapped = action, state.count == 10 { state.count += 1 }
    return effect
  }
}

/// What `assertReplay` says about ``CounterWithABug`` on the bundled counter recording: the very
/// step of the tenth increment.
let counterBugMessage = """
  counter.actionlog: today's reducer does not reproduce the recording.

  The replay differs from the recording at step 18: the state after it is not the one recorded, \
  and the step before it still agreed.

    Action at step 18 (+6.300s):
      CounterFeature.Action.incrementButtonTapped

      CounterFeature.State(
    -   count: 10,
    +   count: 11,
        fact: nil,
        isLoading: false,
        alert: nil
      )

  (Recorded: −, Replayed: +)

  If the reducer is wrong, fix it. If the new behaviour is intended, record it again with \
  Tools/record-samples and commit the new recording.
  """

/// What `assertReplay(everyStep: false)` says: the first checkpoint after the bug, with the
/// steps it could have happened in.
let counterBugCheckpointMessage = """
  counter.actionlog: today's reducer does not reproduce the recording.

  The replay differs from the recording at checkpoint 50 (steps 1–50 since the last state that \
  agreed). The recording keeps full states only at checkpoints: the change happened in steps 1 to \
  50.

    Action at step 50 (+17.500s):
      CounterFeature.Action.factButtonTapped

      CounterFeature.State(
    -   count: 27,
    +   count: 28,
        fact: nil,
        isLoading: true,
        alert: nil
      )

  (Recorded: −, Replayed: +)

  If the reducer is wrong, fix it. If the new behaviour is intended, record it again with \
  Tools/record-samples and commit the new recording.
  """

@Suite struct AssertReplayTests {
  @Test func passesOnEveryBundledRecording() throws {
    try assertReplay(bundledRecording("counter")) { CounterFeature() }
    try assertReplay(bundledRecording("todos")) { Todos() }
    try assertReplay(bundledRecording("songs")) { SongsApp() }
  }

  @Test func checkpointsOnlyFailsAtTheFirstChangedCheckpoint() throws {
    let messages = LockIsolated<[String]>([])
    try withKnownIssue {
      try assertReplay(
        bundledRecording("counter"), everyStep: false, rerecord: "Tools/record-samples"
      ) {
        CounterWithABug()
      }
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    #expect(messages.value == [counterBugCheckpointMessage])
  }

  @Test func failsAtTheFirstChangedStepWithTheDiff() throws {
    let messages = LockIsolated<[String]>([])
    try withKnownIssue {
      try assertReplay(bundledRecording("counter"), rerecord: "Tools/record-samples") {
        CounterWithABug()
      }
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    #expect(messages.value == [counterBugMessage])
  }
}

/// The counter with an alert that comes too late: a failed fact no longer shows it, and the
/// dismissal that follows leaves the state as the recording had it.
struct CounterWithoutTheAlert: Reducer {
  func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    let effect = CounterFeature().reduce(into: &state, action: action)
    if case .factFailed = action { state.alert = nil }
    return effect
  }
}

@Suite struct MissedAlertTests {
  @Test func anAlertShownAndDismissedBetweenCheckpointsFailsAtItsStep() throws {
    let recording = try Recording(contentsOf: bundledRecording("counter"))
    let shown = try #require(
      (1...recording.count).first {
        if case .factFailed = try? recording.action($0, as: CounterFeature.Action.self).action {
          return true
        }
        return false
      })
    // The states agree at every checkpoint: compared there only, the replay passes.
    try assertReplay(recording, everyStep: false) { CounterWithoutTheAlert() }
    let messages = LockIsolated<[String]>([])
    try withKnownIssue {
      try assertReplay(recording) { CounterWithoutTheAlert() }
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    let message = try #require(messages.value.first)
    #expect(messages.value.count == 1)
    #expect(
      message.contains("The replay differs from the recording at step \(shown):"), "\(message)")
    #expect(message.contains("-   alert: CounterFeature.Alert("), "\(message)")
    #expect(message.contains("+   alert: nil"), "\(message)")
  }
}
