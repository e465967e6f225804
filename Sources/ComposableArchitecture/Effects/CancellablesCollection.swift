import ConcurrencyExtras

/// Every cancellable effect in flight in this process, in any store, by its cancellation
/// identifier: what TCA's tests look at after each test, under the name they use.
///
/// A store registers an effect here when it starts one that can be cancelled (by
/// `cancellable(id:)`, or as part of a presented child), and removes it when the effect returns
/// or is cancelled. A test's tear-down can check that none was left running:
///
/// ```swift
/// _cancellationCancellables.withValue {
///   XCTAssertEqual($0.count, 0)
///   $0.removeAll()
/// }
/// ```
@_spi(Internals) public let _cancellationCancellables = LockIsolated(CancellablesCollection())

/// The cancellable effects in flight, by store and cancellation identifier (see
/// `_cancellationCancellables`, whose lock guards it).
@_spi(Internals) public final class CancellablesCollection: @unchecked Sendable {
  private struct Key: Hashable {
    let store: ObjectIdentifier
    let id: _CancelID
  }

  private var tasks: [Key: [Int: Task<Void, Never>]] = [:]

  init() {}

  func insert(_ task: Task<Void, Never>, key: Int, store: ObjectIdentifier, id: _CancelID) {
    self.tasks[Key(store: store, id: id), default: [:]][key] = task
  }

  func remove(key: Int, store: ObjectIdentifier, id: _CancelID) {
    let registered = Key(store: store, id: id)
    self.tasks[registered]?[key] = nil
    if self.tasks[registered]?.isEmpty == true { self.tasks[registered] = nil }
  }

  /// Cancels what runs under `id`, in every store and outside them, at its navigation path or
  /// below it, and forgets it at once, as TCA does: an operation slow to see that it was
  /// cancelled (a download) is not left in flight for a test's tear-down to find.
  func cancel(id: _CancelID) {
    let target = _CancelTarget.id(id)
    for (key, tasks) in self.tasks where target.matches(key.id) {
      for task in tasks.values { task.cancel() }
      self.tasks[key] = nil
    }
  }

  /// Cancels what ``withTaskCancellation(id:cancelInFlight:operation:)`` runs under `id`.
  func cancelOutsideStores(id: _CancelID) {
    let key = Key(store: OutsideStores.identifier, id: id)
    for task in self.tasks[key]?.values ?? [:].values { task.cancel() }
  }

  /// How many cancellation identifiers have an effect in flight, counted once per store.
  public var count: Int { self.tasks.count }

  /// Whether an effect is in flight under `id`, made by the feature at `path` or one presented
  /// below it, in any store.
  public func exists(at id: some Hashable & Sendable, path: NavigationIDPath) -> Bool {
    let target = _CancelTarget.id(_CancelID(id: id, navigationIDPath: path))
    return self.tasks.keys.contains { target.matches($0.id) }
  }

  /// Cancels every effect in flight and forgets it: a test's tear-down, after it has reported
  /// what a test left running, so that the next test starts from none.
  public func removeAll() {
    for task in self.tasks.values.flatMap(\.values) { task.cancel() }
    self.tasks.removeAll()
  }
}
