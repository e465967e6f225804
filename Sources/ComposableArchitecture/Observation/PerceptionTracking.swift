import Observation

/// TCA's name (from Perception) for observation tracking: runs `apply`, tracking the observable
/// properties it reads, and calls `onChange` once, at the first write to any of them.
public func withPerceptionTracking<T>(
  _ apply: () -> T, onChange: @autoclosure () -> @Sendable () -> Void
) -> T {
  withObservationTracking(apply, onChange: onChange())
}

/// TCA's name (from Perception) for an observable type.
public typealias Perceptible = Observable
