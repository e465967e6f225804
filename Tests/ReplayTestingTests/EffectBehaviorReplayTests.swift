import ActionLog
import ComposableArchitecture
import ConcurrencyExtras
import Foundation
import ReplayTesting
import TestSupport
import Testing
import TimeTravel

/// An account synced from a bank: a cancellable sync that feeds back its response, and an audit
/// that runs beside it. Each `Edit` is a later release of the same reducer.
struct Account: Reducer {
  struct State: Codable, Equatable, Sendable {
    var balance = 0
    var isSyncing = false
  }

  @CasePathable
  enum Action: Codable, Equatable, Sendable {
    case cancelTapped
    case syncResponse(Int)
    case syncTapped
  }

  enum CancelID { case sync, refresh }

  /// How a release differs from the one that was recorded.
  enum Edit: CaseIterable {
    /// As recorded.
    case none
    /// Comment lines above the sync's `.run`: it is written on another line.
    case commentsAbove
    /// The audit combined before the sync rather than after it.
    case childrenReordered
    /// No sync request at all.
    case effectDropped
    /// The sync no longer cancellable.
    case cancellableDropped
    /// The sync cancellable under another identifier.
    case idChanged
    /// The sync no longer cancels the one in flight.
    case cancelInFlightDropped
    /// Cancelling no longer cancels the sync.
    case cancelRemoved
  }

  var edit = Edit.none

  var body: some ReducerOf<Self> {
    if self.edit == .childrenReordered {
      CombineReducers {
        Reduce(self.audit)
        Reduce(self.sync)
      }
    } else {
      CombineReducers {
        Reduce(self.sync)
        Reduce(self.audit)
      }
    }
  }

  func sync(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelTapped:
      state.isSyncing = false
      return self.edit == .cancelRemoved ? .none : .cancel(id: CancelID.sync)
    case .syncResponse(let balance):
      state.balance = balance
      state.isSyncing = false
      return .none
    case .syncTapped:
      state.isSyncing = true
      let request = Effect<Action>.run { [balance = state.balance] send in
        await send(.syncResponse(balance + 100))
      }
      switch self.edit {
      case .none, .childrenReordered, .cancelRemoved:
        return request.cancellable(id: CancelID.sync, cancelInFlight: true)
      case .commentsAbove:
        // The bank asks for one request at a time: a new sync replaces the one in flight.
        // (Lines like these, added above the work, move it without changing what it does.)
        return Effect<Action>.run { [balance = state.balance] send in
          await send(.syncResponse(balance + 100))
        }
        .cancellable(id: CancelID.sync, cancelInFlight: true)
      case .effectDropped:
        return .none
      case .cancellableDropped:
        return request
      case .idChanged:
        return request.cancellable(id: CancelID.refresh, cancelInFlight: true)
      case .cancelInFlightDropped:
        return request.cancellable(id: CancelID.sync)
      }
    }
  }

  func audit(into state: inout State, action: Action) -> Effect<Action> {
    guard case .syncTapped = action else { return .none }
    return .run { _ in await Task.yield() }
  }
}

@MainActor
@Suite struct EffectBehaviorReplayTests {
  /// A session recorded with the reducer as it was released: a sync and its response, then a
  /// cancel.
  func record(in directory: TemporaryDirectory) async throws -> URL {
    let url = directory.file("account.actionlog")
    let recorder = try RecorderOf<Account>(
      url: url, feature: "account", initialState: Account.State())
    let store = Store(initialState: Account.State()) { Account().recording(to: recorder) }
    await store.send(.syncTapped).finish()
    store.send(.cancelTapped)
    try recorder.close()
    return url
  }

  /// What `assertReplay` reports for a release with `edit`.
  func failures(replaying url: URL, with edit: Account.Edit) throws -> [String] {
    let messages = LockIsolated<[String]>([])
    try withKnownIssue(isIntermittent: true) {
      try assertReplay(url) { Account(edit: edit) }
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    return messages.value
  }

  @Test func editsThatChangeNoBehaviourReplay() async throws {
    let directory = TemporaryDirectory()
    let url = try await self.record(in: directory)
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 3)
    for edit in [Account.Edit.none, .commentsAbove, .childrenReordered] {
      #expect(try self.failures(replaying: url, with: edit) == [], "\(edit)")
    }
    // The effects really are written elsewhere and merged in another order.
    let timeline = try Timeline(
      recording: recording, reducer: Account(edit: .commentsAbove), feature: "account")
    let moved = try timeline.effects(at: 1)
    #expect(moved.recorded != moved.replayed)
    let reordered = try Timeline(
      recording: recording, reducer: Account(edit: .childrenReordered), feature: "account"
    ).effects(at: 1)
    #expect(reordered.recorded != reordered.replayed)
  }

  @Test func rerecordingAfterAHarmlessEditChangesNoEffectButWritesTheNewSites() async throws {
    let directory = TemporaryDirectory()
    let url = try await self.record(in: directory)
    let timeline = try Timeline(
      recording: try Recording(contentsOf: url), reducer: Account(edit: .commentsAbove),
      feature: "account")
    let summary = try #require(try timeline.rerecord(to: directory.file("again.actionlog")))
    #expect(summary.changedEffects == [])
    let again = try Timeline(
      recording: try Recording(contentsOf: directory.file("again.actionlog")),
      reducer: Account(edit: .commentsAbove), feature: "account")
    let effects = try again.effects(at: 1)
    #expect(effects.recorded == effects.replayed)
  }

  @Test func everyChangeOfBehaviourFailsAtItsStepWithBothSides() async throws {
    let directory = TemporaryDirectory()
    let url = try await self.record(in: directory)
    let sync = "run at EffectBehaviorReplayTests.swift:74"
    let audit = "run at EffectBehaviorReplayTests.swift:101"
    let expected: [(Account.Edit, step: Int, action: String, recorded: String, replayed: String)] =
      [
        (
          .effectDropped, 1, "Account.Action.syncTapped",
          "merge(cancellable(CancelID.sync, cancelInFlight, \(sync)), \(audit))", audit
        ),
        (
          .cancellableDropped, 1, "Account.Action.syncTapped",
          "merge(cancellable(CancelID.sync, cancelInFlight, \(sync)), \(audit))",
          "merge(\(sync), \(audit))"
        ),
        (
          .idChanged, 1, "Account.Action.syncTapped",
          "merge(cancellable(CancelID.sync, cancelInFlight, \(sync)), \(audit))",
          "merge(cancellable(CancelID.refresh, cancelInFlight, \(sync)), \(audit))"
        ),
        (
          .cancelInFlightDropped, 1, "Account.Action.syncTapped",
          "merge(cancellable(CancelID.sync, cancelInFlight, \(sync)), \(audit))",
          "merge(cancellable(CancelID.sync, \(sync)), \(audit))"
        ),
        (.cancelRemoved, 3, "Account.Action.cancelTapped", "cancel(CancelID.sync)", "none"),
      ]
    for (edit, step, action, recorded, replayed) in expected {
      let failures = try self.failures(replaying: url, with: edit)
      #expect(failures.count == 1, "\(edit): \(failures)")
      let message = try #require(failures.first)
      #expect(
        message.contains(
          """
          The replay's effects differ from the recording at step \(step): today's reducer \
          returns other effects for the same action.
          """), "\(edit): \(message)")
      #expect(message.contains("Action at step \(step) "), "\(edit): \(message)")
      #expect(message.contains("  \(action)\n"), "\(edit): \(message)")
      #expect(
        message.contains("    − \(recorded)\n    + \(replayed)\n"), "\(edit): \(message)")
    }
  }
}
