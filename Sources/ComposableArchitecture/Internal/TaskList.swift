import ConcurrencyExtras

/// The effect tasks that one `Store.send` started, a list that grows while those effects feed
/// more actions back into the store.
final class _TaskList: Sendable {
  private let storage = LockIsolated<(tasks: [Task<Void, Never>], isCancelled: Bool)>(([], false))

  var isEmpty: Bool {
    self.storage.value.tasks.isEmpty
  }

  func append(_ task: Task<Void, Never>) {
    let isCancelled = self.storage.withValue {
      $0.tasks.append(task)
      return $0.isCancelled
    }
    if isCancelled { task.cancel() }
  }

  /// Cancels every task in the list, and every task appended later.
  func cancelAll() {
    let tasks = self.storage.withValue {
      $0.isCancelled = true
      return $0.tasks
    }
    for task in tasks { task.cancel() }
  }

  /// Waits until every task in the list, including those appended while waiting, has finished.
  func waitAll() async {
    var index = 0
    while let task = self.task(at: index) {
      await task.value
      index += 1
    }
  }

  private func task(at index: Int) -> Task<Void, Never>? {
    self.storage.withValue { index < $0.tasks.count ? $0.tasks[index] : nil }
  }

  /// A task that waits for every task in the list and cancels them all when it is cancelled.
  func waiter() -> Task<Void, Never> {
    Task {
      await withTaskCancellationHandler {
        await self.waitAll()
      } onCancel: {
        self.cancelAll()
      }
    }
  }
}
