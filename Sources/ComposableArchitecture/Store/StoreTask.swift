/// The work a store started for one action: its effects and the effects of every action they feed
/// back.
///
/// Returned by ``Store/send(_:)``. Await ``finish()`` to wait for all of that work, or ``cancel()``
/// it.
public struct StoreTask: Hashable, Sendable {
  let rawValue: Task<Void, Never>?

  init(rawValue: Task<Void, Never>?) {
    self.rawValue = rawValue
  }

  /// Cancels the underlying task: every effect it tracks is cancelled.
  public func cancel() {
    self.rawValue?.cancel()
  }

  /// Waits for the task to finish.
  public func finish() async {
    await self.rawValue?.value
  }

  /// Whether the task has been cancelled. A task that started no effect counts as cancelled.
  public var isCancelled: Bool {
    self.rawValue?.isCancelled ?? true
  }
}
