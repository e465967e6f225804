/// How strictly a ``TestStore`` checks what happens.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and in-flight effect must be asserted.
  case on

  /// Only what the test asserts is checked: state assertions check only the fields the closure
  /// sets, unasserted received actions are skipped, and effects may still run at the end.
  ///
  /// With `showSkippedAssertions`, what was skipped is reported as an expected issue, which the
  /// test runner shows without failing the test.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive checking that does not show skipped assertions.
  public static let off = Self.off(showSkippedAssertions: false)
}

extension TestStore {
  /// Runs `operation` with another ``exhaustivity``, then restores the store's.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.onAppear)
  ///   await store.receive(\.response)
  /// }
  /// ```
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try await operation()
  }

  /// Runs `operation` with another ``exhaustivity``, then restores the store's.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try operation()
  }
}
