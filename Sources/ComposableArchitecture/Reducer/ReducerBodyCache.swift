import Foundation

/// The body of a `@Reducer` feature, built the first time the feature reduces and kept: what
/// its builder makes (scopes, `forEach`, `ifLet`, with their key paths and case key paths) does
/// not depend on the action, so it is not made again for each one.
///
/// A feature's body is made of the feature's own values, which do not change; its dependencies
/// are read when its reducers run, not when the body is built. `@Reducer` adds one to a struct
/// that has a `body` and no `reduce(into:action:)` of its own, and a `reduce(into:action:)` that
/// runs the body it keeps. Copies of the feature share it. It equals every other, so that a
/// feature's synthesized `Equatable` and `Hashable` are its other properties'.
public final class _ReducerBodyCache<R: Reducer>: @unchecked Sendable, Hashable {
  private let lock = NSLock()
  private var body: R.Body?

  public init() {}

  /// The body of `reducer`, built once.
  public func body(of reducer: R) -> R.Body {
    self.lock.lock()
    defer { self.lock.unlock() }
    if let body = self.body { return body }
    let body = reducer.body
    self.body = body
    return body
  }

  public static func == (lhs: _ReducerBodyCache, rhs: _ReducerBodyCache) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
}
