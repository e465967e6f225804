import Foundation

extension TestStore {
  /// Asserts the store's state as it is now, without sending an action: what effects changed
  /// since the last assertion through shared values, as after `await store.finish()`.
  ///
  /// ```swift
  /// await store.finish()
  /// store.assert {
  ///   $0.$syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
  /// }
  /// ```
  ///
  /// `updateStateToExpectedResult` turns the state as of the last assertion into the state
  /// expected now; a difference fails with its diff. Unlike a `send`'s closure, one that changes
  /// nothing is not a failure when nothing changed.
  public func assert(
    _ updateStateToExpectedResult: @escaping (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let stateBefore = self.baseline
    let stateAfter = self.core.state
    self.baseline = stateAfter
    self.assertState(
      from: stateBefore, to: stateAfter, updateStateToExpectedResult, requiresChange: false,
      at: location)
  }

  /// Whether the feature under test dismissed itself: its reducer or an effect called
  /// `@Dependency(\.dismiss)` with no parent in the store presenting it. As in TCA, that also
  /// cancels the feature's effects still running, as a dismissed presentation's are.
  ///
  /// ```swift
  /// await store.send(\.destination.alert.confirmDeletion) { $0.destination = nil }
  /// #expect(store.isDismissed)
  /// ```
  public var isDismissed: Bool {
    self.dismissal.isDismissed
  }
}

/// A test store's feature dismissing itself.
@MainActor
final class _TestStoreDismissal: Sendable {
  // NB: Main-actor isolated, as `dismiss` runs there.
  private(set) var isDismissed = false
  var cancelEffects: (() -> Void)?

  nonisolated init() {}

  func dismiss() {
    self.isDismissed = true
    self.cancelEffects?()
  }
}
