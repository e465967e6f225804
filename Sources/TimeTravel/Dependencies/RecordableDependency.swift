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
    } peek: {
      live.peek()
    } taken: {
      live.take($0)
    }
  } replay: { dependencies, next in
    // Reads beyond the recording count on from the largest identity given or pushed, so a
    // replay that pushes more than was recorded never reuses one.
    let largest = LockIsolated(-1)
    dependencies.stackElementID = StackElementIDGenerator {
      largest.withValue { largest in
        let value = next().flatMap(Int.init) ?? largest + 1
        largest = max(largest, value)
        return StackElementID(rawValue: value)
      }
    } taken: { id in
      largest.withValue { $0 = max($0, id.rawValue) }
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

extension RecordableDependency {
  /// A dependency client's endpoint that a reducer calls where it runs (not in an effect), such
  /// as SyncUps' `speechClient.authorizationStatus`: each value it returns is recorded, and a
  /// replay answers with the recorded values, then with the endpoint as the replay has it.
  ///
  /// ```swift
  /// dependencies: RecordableDependency.standard + [
  ///   .reads(\.speechClient.authorizationStatus, as: "speechClient.authorizationStatus")
  /// ]
  /// ```
  ///
  /// What an effect reads needs nothing: a replay does not run effects, only the actions they
  /// sent, which are recorded.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint, from `DependencyValues`.
  ///   - name: The name the values are recorded under, unique among the registered
  ///     dependencies: a replay finds them by it, so it must not change.
  public static func reads<Value: Codable>(
    _ endpoint: WritableKeyPath<DependencyValues, @Sendable () -> Value> & Sendable,
    as name: String
  ) -> Self {
    Self.reads(
      endpoint, name: name,
      write: { value in
        (try? JSONEncoder().encode([value])).flatMap { String(data: $0, encoding: .utf8) }
      },
      read: { text in try? JSONDecoder().decode([Value].self, from: Data(text.utf8)).first })
  }

  /// An endpoint returning a value with a raw value, such as an authorization status: recorded
  /// as its raw value.
  public static func reads<Value: RawRepresentable>(
    _ endpoint: WritableKeyPath<DependencyValues, @Sendable () -> Value> & Sendable,
    as name: String
  ) -> Self where Value.RawValue: LosslessStringConvertible {
    Self.reads(
      endpoint, name: name, write: { String($0.rawValue) },
      read: { Value.RawValue($0).flatMap(Value.init(rawValue:)) })
  }

  /// An endpoint returning a `Codable` value that has a raw value too: recorded as it encodes.
  public static func reads<Value: Codable & RawRepresentable>(
    _ endpoint: WritableKeyPath<DependencyValues, @Sendable () -> Value> & Sendable,
    as name: String
  ) -> Self where Value.RawValue: LosslessStringConvertible {
    Self.reads(
      endpoint, name: name,
      write: { value in
        (try? JSONEncoder().encode([value])).flatMap { String(data: $0, encoding: .utf8) }
      },
      read: { text in try? JSONDecoder().decode([Value].self, from: Data(text.utf8)).first })
  }

  private static func reads<Value>(
    _ endpoint: WritableKeyPath<DependencyValues, @Sendable () -> Value> & Sendable,
    name: String,
    write: @escaping @Sendable (Value) -> String?,
    read: @escaping @Sendable (String) -> Value?
  ) -> Self {
    Self(name: name) { dependencies, capture in
      let live = dependencies[keyPath: endpoint]
      dependencies[keyPath: endpoint] = {
        let value = live()
        if let text = write(value) { capture(text) }
        return value
      }
    } replay: { dependencies, next in
      let fallback = dependencies[keyPath: endpoint]
      dependencies[keyPath: endpoint] = { next().flatMap(read) ?? fallback() }
    }
  }
}
