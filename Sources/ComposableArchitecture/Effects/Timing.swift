import Clocks
import ConcurrencyExtras
import Dependencies

extension Effect {
  /// Delays the effect until `duration` has passed without another effect with the same
  /// identifier being started: only the last of a quick succession runs.
  ///
  /// ```swift
  /// case .searchQueryChanged(let query):
  ///   state.query = query
  ///   return .run { send in
  ///     await send(.searchResponse(try await api.search(query)))
  ///   }
  ///   .debounce(id: CancelID.search, for: .milliseconds(300), clock: self.clock)
  /// ```
  ///
  /// The delay runs on `clock`, so a test drives it with a `TestClock` and a replay does not wait.
  /// What the effect looks like to a recording does not depend on time: a debounced effect is
  /// a cancellable (in flight cancelled) sequence of a sleep and the effect.
  ///
  /// - Parameters:
  ///   - id: The effect's identifier; a new debounced effect with it cancels the waiting one.
  ///   - duration: How long to wait for quiet.
  ///   - clock: The clock that measures the wait.
  /// - Returns: The debounced effect.
  public func debounce<C: Clock<Duration>>(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: C,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    if case .none = self.operation { return .none }
    let wait = Self.run(
      operation: { _ in try await clock.sleep(for: duration) },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return Self.concatenate(wait, self).cancellable(id: id, cancelInFlight: true)
  }

  /// Lets the effect's work through at most once per `duration` for an identifier.
  ///
  /// The first effect with an identifier runs at once; one started within `duration` of the last
  /// that ran waits for the interval to end. While one waits, a newer one replaces it when
  /// `latest` is true, and is dropped when it is false.
  ///
  /// Whether an effect waits is decided when it runs, on `clock`, so the effect a reducer returns,
  /// and what a recording notes of it, is the same whatever the time.
  ///
  /// - Parameters:
  ///   - id: The identifier the interval is kept for.
  ///   - duration: The interval.
  ///   - clock: The clock that measures the interval.
  ///   - latest: Whether the newest waiting effect runs at the end of the interval (`true`) or
  ///     the first (`false`).
  /// - Returns: The throttled effect.
  public func throttle<C: Clock<Duration>>(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: C,
    latest: Bool,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    if case .none = self.operation { return .none }
    @Dependency(\.navigationIDPath) var navigationIDPath
    @Dependency(\._throttles) var throttles
    let key = _CancelID(
      id: _ThrottleID(id: AnyHashableSendable(id)), navigationIDPath: navigationIDPath)
    let site = CallSite(fileID: fileID, line: line)
    return self.gated(site: site) { operation in
      switch throttles.admit(key, now: clock.now, interval: duration, latest: latest) {
      case .now:
        await operation()
      case let .at(instant, ticket):
        do {
          try await clock.sleep(until: instant, tolerance: nil)
        } catch {
          throttles.withdraw(key, ticket: ticket)
          return
        }
        guard throttles.claim(key, ticket: ticket, now: clock.now) else { return }
        await operation()
      case .drop:
        return
      }
    }
    .cancellable(id: id)
  }

  /// The effect, each asynchronous operation and each sent action let through by `gate`.
  private func gated(
    site: CallSite,
    _ gate: @escaping @Sendable (@Sendable () async -> Void) async -> Void
  ) -> Self {
    switch self.structure {
    case .none, .cancel:
      return self
    case let .send(action, _):
      let action = UncheckedSendable(action)
      return Self(
        operation: .run(nil, _EffectRun(site: site)) { send in
          await gate { await send(action.value) }
        }
      )
    case let .run(priority, site, operation):
      return Self(
        operation: .run(priority, site) { send in await gate { await operation(send) } }
      )
    case let .merge(effects):
      return Self(operation: .merge(effects.map { $0.gated(site: site, gate) }))
    case let .concatenate(effects):
      return Self(operation: .concatenate(effects.map { $0.gated(site: site, gate) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Self(
        operation: .cancellable(id, cancelInFlight: cancelInFlight, effect.gated(site: site, gate))
      )
    }
  }
}

/// A throttle's identifier, apart from the cancellation identifier the user gives.
private struct _ThrottleID: Hashable, Sendable {
  let id: AnyHashableSendable
}

/// When each throttled identifier last let work through, and which work waits for it: one for
/// each store, so that stores (and tests) do not throttle one another.
final class _Throttles: Sendable {
  enum Admission<Instant: Sendable>: Sendable {
    case now
    case at(Instant, ticket: UInt64)
    case drop
  }

  private struct Entry {
    var last: (any InstantProtocol & Sendable)?
    var waiting: UInt64?
    /// The last ticket given for this identifier: tickets are compared only within one.
    var tickets: UInt64 = 0
  }

  private let entries = LockIsolated<[_CancelID: Entry]>([:])

  func admit<I: InstantProtocol & Sendable>(
    _ key: _CancelID, now: I, interval: Duration, latest: Bool
  ) -> Admission<I> where I.Duration == Duration {
    self.entries.withValue { entries in
      var entry = entries[key] ?? Entry()
      defer { entries[key] = entry }
      entry.tickets += 1
      let ticket = entry.tickets
      guard let last = entry.last as? I, now < last.advanced(by: interval) else {
        entry.last = now
        entry.waiting = nil
        return .now
      }
      if entry.waiting != nil, !latest { return .drop }
      entry.waiting = ticket
      return .at(last.advanced(by: interval), ticket: ticket)
    }
  }

  /// Whether the waiting work with `ticket` is still the one to run; if so it runs now.
  func claim<I: InstantProtocol & Sendable>(_ key: _CancelID, ticket: UInt64, now: I) -> Bool {
    self.entries.withValue { entries in
      guard entries[key]?.waiting == ticket else { return false }
      entries[key]?.waiting = nil
      entries[key]?.last = now
      return true
    }
  }

  /// The waiting work with `ticket` was cancelled: the next may run.
  func withdraw(_ key: _CancelID, ticket: UInt64) {
    self.entries.withValue { entries in
      if entries[key]?.waiting == ticket { entries[key]?.waiting = nil }
    }
  }
}

private enum ThrottlesKey: DependencyKey {
  static let liveValue = _Throttles()
  static let testValue = _Throttles()
}

extension DependencyValues {
  /// The throttles of the store the reducer runs in.
  var _throttles: _Throttles {
    get { self[ThrottlesKey.self] }
    set { self[ThrottlesKey.self] = newValue }
  }
}
