import CustomDump
import Dependencies

/// The identity of a screen in a ``StackState``: given when it is pushed, kept while it is
/// there. Tests write it as an integer literal: `store.send(\.path[id: 0].saveButtonTapped)`.
///
/// In a recording, an integer.
public struct StackElementID: Hashable, Comparable, Sendable, Codable,
  ExpressibleByIntegerLiteral, CustomDumpStringConvertible
{
  /// The number.
  public let rawValue: Int

  /// The identity numbered `rawValue`.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  public init(integerLiteral value: Int) {
    self.rawValue = value
  }

  public init(from decoder: any Decoder) throws {
    self.rawValue = try decoder.singleValueContainer().decode(Int.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.rawValue)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The identity's number: 0 for the first screen of a test (or of the app), 1 for the next, ….
  public var generation: Int { self.rawValue }

  /// `#0`.
  public var customDumpDescription: String { "#\(self.rawValue)" }
}

extension StackElementID: CustomStringConvertible, CustomDebugStringConvertible {
  /// `#0`.
  public var description: String { "#\(self.rawValue)" }
  /// `#0`, as a list of identities shows each.
  public var debugDescription: String { "#\(self.rawValue)" }
}

/// Gives the identities of pushed screens: 0, 1, 2, …, one counter per dependency context (for
/// the process in an app, for each test in tests), as TCA's: screens a test makes before its store
/// and the screens the store pushes share it.
public struct StackElementIDGenerator: Sendable {
  /// Gives the next identity, as calling the generator does.
  public let next: @Sendable () -> StackElementID
  /// The identity ``next`` would give, without giving it. A generator made without a `peek` of
  /// its own cannot tell, and gives it.
  public let peek: @Sendable () -> StackElementID
  let taken: @Sendable (StackElementID) -> Void
  /// Whether ``peek`` tells without giving: what a test store's copies for assertions and the
  /// check of a pushed identity in tests need.
  let canPeek: Bool

  /// A generator that calls `next` for each identity.
  public init(_ next: @escaping @Sendable () -> StackElementID) {
    self.init(next: next, peek: nil, taken: { _ in })
  }

  /// A generator that draws identities from `next`, and is told by `taken` of each identity a
  /// screen pushed with its own (`.push(id:state:)`) took, so that it draws later ones after it.
  /// What a wrapper of another generator forwards to it.
  public init(
    next: @escaping @Sendable () -> StackElementID,
    taken: @escaping @Sendable (StackElementID) -> Void
  ) {
    self.init(next: next, peek: nil, taken: taken)
  }

  /// A generator that draws identities from `next`, says what it would give with `peek`, and is
  /// told by `taken` of each identity a screen pushed with its own took. What a wrapper of a
  /// counting generator forwards to it.
  public init(
    next: @escaping @Sendable () -> StackElementID,
    peek: @escaping @Sendable () -> StackElementID,
    taken: @escaping @Sendable (StackElementID) -> Void
  ) {
    self.init(next: next, peek: Optional(peek), taken: taken)
  }

  /// `peek` says what `next` would give; without it, a generator that cannot tell gives it.
  private init(
    next: @escaping @Sendable () -> StackElementID,
    peek: (@Sendable () -> StackElementID)?,
    taken: @escaping @Sendable (StackElementID) -> Void
  ) {
    self.next = next
    self.peek = peek ?? next
    self.taken = taken
    self.canPeek = peek != nil
  }

  /// The next identity.
  public func callAsFunction() -> StackElementID {
    self.next()
  }

  /// Says that `id` is in use (a screen pushed with it, `.push(id: 0, state: …)` in a test), so
  /// that the identities given later come after it, as TCA's do.
  /// Notes that a screen pushed with its own identity took `id`.
  public func take(_ id: StackElementID) {
    self.taken(id)
  }

  /// Counts from 0.
  public static func incrementing() -> Self {
    Self.incrementing(from: StackElementID(rawValue: 0))
  }

  /// Counts from `first`.
  static func incrementing(from first: StackElementID) -> Self {
    let counter = LockIsolated(first.rawValue)
    return Self(
      next: {
        counter.withValue { count in
          defer { count += 1 }
          return StackElementID(rawValue: count)
        }
      },
      peek: { StackElementID(rawValue: counter.value) },
      taken: { id in counter.withValue { $0 = max($0, id.rawValue + 1) } }
    )
  }
}

private enum StackElementIDKey: DependencyKey {
  // NB: Computed, so that each context's cache (the app's, each test's) has a counter of its own.
  static var liveValue: StackElementIDGenerator { .incrementing() }
  static var testValue: StackElementIDGenerator { .incrementing() }
}

extension DependencyValues {
  /// Gives the identities of pushed screens; each test (and the app) counts from 0 unless this is
  /// set.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDKey.self] }
    set { self[StackElementIDKey.self] = newValue }
  }
}
