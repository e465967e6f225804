import ConcurrencyExtras
import Dependencies

/// Runs `operation` so that it can be cancelled by its identifier, as an effect marked
/// `.cancellable(id:)` can: `Task.cancel(id:)`, or `Effect.cancel(id:)` from a store's reducer,
/// cancels it. With `cancelInFlight`, an operation already running under the identifier is
/// cancelled first.
///
/// ```swift
/// try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///   try await self.search(query)
/// }
/// ```
///
/// It counts in `_cancellationCancellables` while it runs, as a cancellable effect does.
public func withTaskCancellation<T: Sendable, E: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws(E) -> T
) async throws(E) -> T {
  @Dependency(\.navigationIDPath) var navigationIDPath
  return try await withTaskCancellation(
    _CancelID(id: id, navigationIDPath: navigationIDPath), cancelInFlight: cancelInFlight,
    operation: operation)
}

/// ``withTaskCancellation(id:cancelInFlight:operation:)`` under an identifier made already.
func withTaskCancellation<T: Sendable, E: Error>(
  _ cancelID: _CancelID,
  cancelInFlight: Bool,
  operation: @escaping @Sendable () async throws(E) -> T
) async throws(E) -> T {
  let key = OutsideStores.nextKey()
  // NB: Started and registered under the registry's lock, as TCA does: the operation may run at
  // once, on another thread, and a `Task.cancel(id:)` it prompts must find it registered.
  let task = _cancellationCancellables.withValue { cancellables in
    if cancelInFlight { cancellables.cancel(id: cancelID) }
    let task = Task<Result<T, E>, Never> {
      do throws(E) {
        return .success(try await operation())
      } catch {
        return .failure(error)
      }
    }
    // NB: What the registry cancels: a task that waits for the operation and cancels it.
    let watcher = Task<Void, Never> {
      await withTaskCancellationHandler {
        _ = await task.value
      } onCancel: {
        task.cancel()
      }
    }
    cancellables.insert(watcher, key: key, store: OutsideStores.identifier, id: cancelID)
    return task
  }
  let result = await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }
  _cancellationCancellables.withValue {
    $0.remove(key: key, store: OutsideStores.identifier, id: cancelID)
  }
  return try result.get()
}

extension Task where Success == Never, Failure == Never {
  /// Cancels every effect and every ``withTaskCancellation(id:cancelInFlight:operation:)``
  /// running under `id`, in any store, made by the feature the caller runs in.
  public static func cancel(id: some Hashable & Sendable) {
    @Dependency(\.navigationIDPath) var navigationIDPath
    let cancelID = _CancelID(id: id, navigationIDPath: navigationIDPath)
    _cancellationCancellables.withValue { $0.cancel(id: cancelID) }
  }
}

/// Operations made cancellable outside any store: they share the registry of effects in flight
/// under an identifier of their own.
enum OutsideStores {
  private final class Marker: Sendable {}
  private static let marker = Marker()
  static var identifier: ObjectIdentifier { ObjectIdentifier(marker) }
  private static let counter = LockIsolated(0)

  static func nextKey() -> Int {
    counter.withValue {
      $0 += 1
      return $0
    }
  }
}
