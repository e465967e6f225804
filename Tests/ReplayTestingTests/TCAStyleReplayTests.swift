import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayTesting
import TestSupport
import Testing

/// The contacts feature with its stack broken: screens never pop.
private struct ContactsThatNeverPop: Reducer {
  func reduce(into state: inout Contacts.State, action: Contacts.Action) -> Effect<Contacts.Action>
  {
    if case .path(.popFrom) = action { return .none }
    return Contacts().reduce(into: &state, action: action)
  }
}

/// The inventory with its sheet broken: a dismissal is ignored.
private struct InventoryThatIgnoresDismissal: Reducer {
  func reduce(
    into state: inout Inventory.State, action: Inventory.Action
  ) -> Effect<Inventory.Action> {
    if case .destination(.dismiss) = action { return .none }
    return Inventory().reduce(into: &state, action: action)
  }
}

/// The recordings of the features written as TCA 1.x writes them replay with today's reducers,
/// and fail with a broken one.
@Suite struct TCAStyleReplayTests {
  @Test func theBundledRecordingsReplay() throws {
    try assertReplay(bundledRecording("inventory")) { Inventory() }
    try assertReplay(bundledRecording("contacts")) { Contacts() }
    try assertReplay(bundledRecording("search")) { CitySearch() }
  }

  @Test func aStackThatNoLongerPopsFails() throws {
    let messages = try self.failures {
      try assertReplay(bundledRecording("contacts")) { ContactsThatNeverPop() }
    }
    #expect(messages.count == 1)
    #expect(
      messages.first?.contains("contacts.actionlog: today's reducer does not reproduce") == true)
    // The pop's cancellation of the screen's effects is missing where the pop was recorded.
    #expect(messages.first?.contains("popFrom(id: #0)") == true, "\(messages)")
  }

  @Test func aSheetThatIsNoLongerDismissedFails() throws {
    let messages = try self.failures {
      try assertReplay(bundledRecording("inventory")) { InventoryThatIgnoresDismissal() }
    }
    #expect(messages.count == 1)
    // The dismissal's cancellation of the sheet's effects is missing, at the step it was recorded.
    #expect(
      messages.first?.contains(
        """
          Action at step 11 (+3.850s):
            Inventory.Action.destination(.dismiss)

          Effects:
            − cancel(the features at destination[addItem])
            + none
        """) == true, "\(messages)")
  }

  private func failures(_ body: () throws -> Void) rethrows -> [String] {
    let messages = LockIsolated<[String]>([])
    try withKnownIssue {
      try body()
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    return messages.value
  }
}
