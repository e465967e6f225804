import Dependencies

/// A reducer that adjusts the dependencies of the store that runs it, once, when the store is
/// created.
///
/// A store runs its reducer with the store's dependency values. Middleware that wraps some of
/// them (to observe what a reducer reads, for one) can conform, so that its wrappers are in
/// place for every action without pushing new values each time. Only a ``Store``'s root reducer
/// is asked (a ``TestStore``'s dependencies can change between steps, so it asks none), and the
/// reducer must still work when it runs without the store (called directly, inside another
/// reducer, in a test store): check that the values in effect are the prepared ones.
public protocol _StoreDependencyPreparing {
  /// Adjusts `dependencies`, the values the store will run the reducer and its effects with.
  func _prepare(storeDependencies dependencies: inout DependencyValues)
}

// NB: The builder's conditionals stand for the branch they hold: a root reducer written
// `if recording { Feature().recording(to: recorder) } else { Feature() }` is the branch taken.

extension ReducerBuilder._Conditional: _StoreDependencyPreparing {
  public func _prepare(storeDependencies dependencies: inout DependencyValues) {
    switch self {
    case let .first(first):
      (first as? any _StoreDependencyPreparing)?._prepare(storeDependencies: &dependencies)
    case let .second(second):
      (second as? any _StoreDependencyPreparing)?._prepare(storeDependencies: &dependencies)
    }
  }
}

extension Optional: _StoreDependencyPreparing where Wrapped: Reducer {
  public func _prepare(storeDependencies dependencies: inout DependencyValues) {
    guard let wrapped = self else { return }
    (wrapped as? any _StoreDependencyPreparing)?._prepare(storeDependencies: &dependencies)
  }
}
