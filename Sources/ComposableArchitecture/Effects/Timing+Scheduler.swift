#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombineShim)
  import OpenCombineShim
#endif
import CombineSchedulers
import ConcurrencyExtras
import Foundation

#if canImport(Combine) || canImport(OpenCombineShim)
  extension Effect where Action: Sendable {
    /// ``debounce(id:for:clock:fileID:filePath:line:column:)`` on a Combine scheduler, as TCA's
    /// deprecated form has it: the effect starts once `dueTime` has passed on `scheduler`
    /// without another with the same identifier, and its actions are delivered on `scheduler`.
    @available(*, deprecated, message: "Use 'debounce(id:for:clock:)' with a clock, instead.")
    public func debounce<S: Scheduler & Sendable>(
      id: some Hashable & Sendable,
      for dueTime: S.SchedulerTimeType.Stride,
      scheduler: S,
      options: S.SchedulerOptions? = nil
    ) -> Self {
      if case .none = self.operation { return .none }
      let effect = UncheckedSendable(self)
      // An action sent at once is scheduled from now, as TCA's publisher is subscribed to when
      // the reducer returns it: a test scheduler advanced right after the send delivers it,
      // whenever the effect's task starts.
      if case let .send(action, _) = self.operation {
        let result = _SchedulerResult<UncheckedSendable<Action>>()
        let action = UncheckedSendable(action)
        scheduler.schedule(
          after: scheduler.now.advanced(by: dueTime), tolerance: .zero, options: options
        ) {
          scheduler.schedule { result.resolve(action) }
        }
        return Self.run { send in await send(try await result.value().value) }
          .cancellable(id: id, cancelInFlight: true)
      }
      // NB: OpenCombine's strides and options are not `Sendable`; they are values, only read.
      let wait = UncheckedSendable((dueTime, options))
      return Self.run { send in
        try await scheduler.sleep(for: wait.value.0, options: wait.value.1)
        for await action in effect.value.actions {
          try await scheduler.turn()
          await send(action)
        }
      }
      .cancellable(id: id, cancelInFlight: true)
    }

    /// ``throttle(id:for:clock:latest:fileID:line:)`` on a Combine scheduler, as TCA's
    /// deprecated form has it: each action is delivered on `scheduler`; the first with an
    /// identifier at once, and one within `interval` of the last delivered at the end of the
    /// interval, the newest (`latest`) or the first that waited, a newer effect with the
    /// identifier cancelling the waiting one.
    @available(
      *, deprecated, message: "Use 'throttle(id:for:clock:latest:)' with a clock, instead."
    )
    public func throttle<S: Scheduler & Sendable>(
      id: some Hashable & Sendable,
      for interval: S.SchedulerTimeType.Stride,
      scheduler: S,
      latest: Bool
    ) -> Self {
      if case .none = self.operation { return .none }
      let effect = UncheckedSendable(self)
      let key = AnyHashableSendable(id)
      // NB: OpenCombine's strides are not `Sendable`; they are values, only read.
      let interval = UncheckedSendable(interval)
      typealias Decision = (
        value: UncheckedSendable<Action>, wait: UncheckedSendable<S.SchedulerTimeType.Stride>?
      )
      /// What to do with `action`, received on the scheduler now.
      @Sendable func decide(_ action: UncheckedSendable<Action>) -> Decision {
        _schedulerThrottles.withValue { throttles -> Decision in
          guard let last = throttles.times[key] as? S.SchedulerTimeType else {
            throttles.times[key] = scheduler.now
            throttles.values[key] = nil
            return (action, nil)
          }
          let value =
            latest ? action : (throttles.values[key] as? UncheckedSendable<Action> ?? action)
          throttles.values[key] = value
          guard last.distance(to: scheduler.now) < interval.value else {
            throttles.times[key] = scheduler.now
            throttles.values[key] = nil
            return (value, nil)
          }
          return (
            value,
            UncheckedSendable(scheduler.now.distance(to: last.advanced(by: interval.value)))
          )
        }
      }
      @Sendable func deliver(_ decision: Decision, _ send: Send<Action>) async throws {
        if let wait = decision.wait {
          try await scheduler.sleep(for: wait.value)
          _schedulerThrottles.withValue {
            $0.times[key] = scheduler.now
            $0.values[key] = nil
          }
        }
        await send(decision.value.value)
      }
      // An action sent at once is received on the scheduler from now, as TCA's publisher is
      // subscribed to when the reducer returns it: a test scheduler advanced right after the send
      // delivers it, whenever the effect's task starts.
      if case let .send(action, _) = self.operation {
        let result = _SchedulerResult<UncheckedSendable<Action>>()
        let action = UncheckedSendable(action)
        scheduler.schedule {
          guard !result.isAbandoned else { return }
          let decision = decide(action)
          guard let wait = decision.wait else { return result.resolve(decision.value) }
          scheduler.schedule(
            after: scheduler.now.advanced(by: wait.value), tolerance: .zero, options: nil
          ) {
            guard !result.isAbandoned else { return }
            _schedulerThrottles.withValue {
              $0.times[key] = scheduler.now
              $0.values[key] = nil
            }
            result.resolve(decision.value)
          }
        }
        return Self.run { send in await send(try await result.value().value) }
          .cancellable(id: id, cancelInFlight: true)
      }
      return Self.run { send in
        for await action in effect.value.actions {
          try await scheduler.turn()
          try await deliver(decide(UncheckedSendable(action)), send)
        }
      }
      .cancellable(id: id, cancelInFlight: true)
    }
  }

  /// A value a scheduler's work makes later, for a task to wait for; given up when that task is
  /// cancelled first (the work then checks ``isAbandoned`` and does nothing).
  private final class _SchedulerResult<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Value?
    private var waiter: CheckedContinuation<Void, Never>?
    private var abandoned = false

    var isAbandoned: Bool {
      self.lock.withLock { self.abandoned }
    }

    func resolve(_ value: Value) {
      let waiter: CheckedContinuation<Void, Never>? = self.lock.withLock {
        guard !self.abandoned else { return nil }
        self.result = value
        defer { self.waiter = nil }
        return self.waiter
      }
      waiter?.resume()
    }

    /// Waits for the value; throws when the task is cancelled first.
    func value() async throws -> Value {
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let waits: Bool = self.lock.withLock {
            if self.result != nil { return false }
            if Task.isCancelled {
              self.abandoned = true
              return false
            }
            self.waiter = continuation
            return true
          }
          if !waits { continuation.resume() }
        }
      } onCancel: {
        let waiter: CheckedContinuation<Void, Never>? = self.lock.withLock {
          if self.result == nil { self.abandoned = true }
          defer { self.waiter = nil }
          return self.waiter
        }
        waiter?.resume()
      }
      guard let result = self.lock.withLock({ self.result }) else { throw CancellationError() }
      return result
    }
  }

  /// When each identifier last let an action through a scheduler's throttle, and the action
  /// waiting: kept for the process, by identifier, as TCA keeps them.
  private let _schedulerThrottles = LockIsolated<
    (times: [AnyHashableSendable: Any], values: [AnyHashableSendable: Any])
  >((times: [:], values: [:]))

  extension Scheduler {
    /// Waits for the scheduler's next turn, as a value `receive(on:)` the scheduler does: on a
    /// test scheduler, until it is advanced. Throws when the task is cancelled.
    fileprivate func turn() async throws {
      try Task.checkCancellation()
      let resumed = LockIsolated<CheckedContinuation<Void, Never>?>(nil)
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          resumed.setValue(continuation)
          // NB: A cancellation that came before the continuation was there.
          if Task.isCancelled {
            resumed.withValue {
              $0?.resume()
              $0 = nil
            }
            return
          }
          self.schedule {
            resumed.withValue {
              $0?.resume()
              $0 = nil
            }
          }
        }
      } onCancel: {
        resumed.withValue {
          $0?.resume()
          $0 = nil
        }
      }
      try Task.checkCancellation()
    }
  }
#endif
