import ActionLog
import ComposableArchitecture
import Foundation

/// A dependency whose values a reducer reads, and which a recording must hold so that replaying
/// the reducer reads the same values.
///
/// `uuid`, `date`, `withRandomNumberGenerator` and `stackElementID` are recordable out of the
/// box (``standard``). Register your own by saying how to wrap the live value so each value read is
/// captured as text, and how to answer reads from the recorded text during replay:
///
/// ```swift
/// let dice = RecordableDependency(name: "dice") { dependencies, capture in
///   let live = dependencies.dice
///   dependencies.dice.roll = {
///     let value = live.roll()
///     capture(String(value))
///     return value
///   }
/// } replay: { dependencies, next in
///   dependencies.dice.roll = { next().flatMap(Int.init) ?? 1 }
/// }
/// ```
public struct RecordableDependency: Sendable {
  /// The name the values are recorded under.
  public let name: String
  let record:
    @Sendable (inout DependencyValues, _ capture: @escaping @Sendable (String) -> Void) -> Void
  let replay: @Sendable (inout DependencyValues, _ next: @escaping @Sendable () -> String?) -> Void

  /// Creates a recordable dependency.
  ///
  /// - Parameters:
  ///   - name: The name the values are recorded under; unique among the registered dependencies.
  ///   - record: Replaces the dependency with one that passes each value it produces to
  ///     `capture`, as text that converts back without loss.
  ///   - replay: Replaces the dependency with one that answers each read with the next recorded
  ///     value; `next` returns `nil` once the recorded values run out.
  public init(
    name: String,
    record:
      @escaping @Sendable (
        inout DependencyValues, _ capture: @escaping @Sendable (String) -> Void
      ) -> Void,
    replay:
      @escaping @Sendable (
        inout DependencyValues, _ next: @escaping @Sendable () -> String?
      ) -> Void
  ) {
    self.name = name
    self.record = record
    self.replay = replay
  }
}

extension RecordableDependency {
  /// `uuid`, `date`, `withRandomNumberGenerator` and `stackElementID`.
  public static let standard: [RecordableDependency] = [.uuid, .date, .random, .stackElementID]

  /// `@Dependency(\.stackElementID)`, the identities of pushed screens, recorded as integers, so
  /// that a replay pushes each screen under the identity it had (later actions name it).
  public static let stackElementID = RecordableDependency(name: "stackElementID") {
    dependencies, capture in
    let live = dependencies.stackElementID
    dependencies.stackElementID = StackElementIDGenerator {
      let value = live()
      capture(String(value.rawValue))
      return value
    }
  } replay: { dependencies, next in
    // Reads beyond the recording count on from the largest identity given, so a replay that
    // pushes more than was recorded never reuses one.
    let largest = LockIsolated(-1)
    dependencies.stackElementID = StackElementIDGenerator {
      largest.withValue { largest in
        let value = next().flatMap(Int.init) ?? largest + 1
        largest = max(largest, value)
        return StackElementID(rawValue: value)
      }
    }
  }

  /// `@Dependency(\.uuid)`, recorded as UUID strings.
  public static let uuid = RecordableDependency(name: "uuid") { dependencies, capture in
    let live = dependencies.uuid
    dependencies.uuid = UUIDGenerator {
      let value = live()
      capture(value.uuidString)
      return value
    }
  } replay: { dependencies, next in
    // Reads beyond the recording get seeded random UUIDs: deterministic, and unlike counting
    // ones they do not collide with the IDs of a session recorded with `.incrementing`.
    let fallback = LockIsolated(SplitMix64(seed: 0x5EED))
    dependencies.uuid = UUIDGenerator {
      next().flatMap(UUID.init(uuidString:)) ?? fallback.withValue { UUID(using: &$0) }
    }
  }

  /// `@Dependency(\.date)`, recorded as seconds since 2001-01-01 (Foundation's reference date),
  /// the value a `Date` holds, so that it converts back exactly.
  public static let date = RecordableDependency(name: "date") { dependencies, capture in
    let live = dependencies.date
    dependencies.date = DateGenerator {
      let value = live.now
      capture(String(value.timeIntervalSinceReferenceDate))
      return value
    }
  } replay: { dependencies, next in
    dependencies.date = DateGenerator {
      Date(timeIntervalSinceReferenceDate: next().flatMap(Double.init) ?? 0)
    }
  }

  /// `@Dependency(\.withRandomNumberGenerator)`, recorded as the generator's 64-bit outputs.
  public static let random = RecordableDependency(name: "random") { dependencies, capture in
    let live = dependencies.withRandomNumberGenerator
    dependencies.withRandomNumberGenerator = WithRandomNumberGenerator(
      CapturingGenerator(live: live, capture: capture)
    )
  } replay: { dependencies, next in
    dependencies.withRandomNumberGenerator = WithRandomNumberGenerator(
      ReplayingGenerator(next: next)
    )
  }
}

/// Draws from the live generator and captures each output.
private struct CapturingGenerator: RandomNumberGenerator, Sendable {
  let live: WithRandomNumberGenerator
  let capture: @Sendable (String) -> Void

  mutating func next() -> UInt64 {
    let value = self.live { $0.next() }
    self.capture(String(value))
    return value
  }
}

/// Answers with recorded outputs, then with a fixed sequence once they run out, so a replay
/// that reads more than was recorded stays deterministic.
private struct ReplayingGenerator: RandomNumberGenerator, Sendable {
  let recorded: @Sendable () -> String?
  var fallback = SplitMix64(seed: 0)

  init(next: @escaping @Sendable () -> String?) {
    self.recorded = next
  }

  mutating func next() -> UInt64 {
    self.recorded().flatMap(UInt64.init) ?? self.fallback.next()
  }
}

extension UUID {
  /// A version 4 UUID drawn from `generator`.
  init(using generator: inout some RandomNumberGenerator) {
    let high = generator.next()
    let low = generator.next()
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 {
      bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
      bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
    }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    self.init(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      )
    )
  }
}
