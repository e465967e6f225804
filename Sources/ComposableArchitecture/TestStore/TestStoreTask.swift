import ConcurrencyExtras
import IssueReporting

/// The effects a ``TestStore/send(_:assert:fileID:filePath:line:column:)`` started, returned so
/// a test can wait for them or cancel them.
public struct TestStoreTask: Hashable, Sendable {
  let rawValue: Task<Void, Never>?
  let timeout: Duration

  /// A test store task over `rawValue`, as TCA's own tests build one to check `isCancelled` and
  /// `finish()`: `nil` for no effects.
  @_spi(Canary) public init(rawValue: Task<Void, Never>?, timeout: Duration) {
    self.rawValue = rawValue
    self.timeout = timeout
  }

  /// Cancels the effects and waits for them to finish.
  public func cancel() async {
    self.rawValue?.cancel()
    await self.rawValue?.value
  }

  /// Waits for the effects to finish, and reports an issue if they have not after `timeout`.
  ///
  /// - Parameter timeout: How long to wait; the test store's ``TestStore/timeout`` by default.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let rawValue = self.rawValue else { return }
    let timeout = timeout ?? self.timeout
    let isFinished = LockIsolated(false)
    Task {
      await rawValue.value
      isFinished.setValue(true)
    }
    let didFinish = await _poll(timeout: timeout) { isFinished.value }
    guard !didFinish else { return }
    _reportTestFailure(
      """
      Expected task to finish, but it is still in-flight after \(timeout). …

      To fix this, make sure every effect this action started completes: advance the test clock \
      it waits on, or cancel long-living effects, or wait longer with "finish(timeout:)".
      """,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Whether the effects have been cancelled. A task that started no effect counts as cancelled.
  public var isCancelled: Bool {
    self.rawValue?.isCancelled ?? true
  }
}
