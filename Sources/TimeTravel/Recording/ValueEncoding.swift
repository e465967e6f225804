import ActionLog
import Foundation
import StepChanges

/// How a recorder hands its feature's states and actions to the writer's thread, chosen by what
/// their types are:
/// - `Encodable` and `Sendable`: as they are, encoded on the writer's thread by their own code
///   (generated, or `Codable`).
/// - `Sendable` only: wrapped, and encoded on the writer's thread by their generated code, their
///   own `Codable` where a part has it, or reflection (``StepChanges/_ReflectedValue``), in the
///   shape synthesized `Codable` would give them.
/// - Not proven `Sendable` (a `public` type that does not say it is, or one holding a class):
///   encoded on the sending thread, where it is safe to read, into JSON the writer then takes.
///   That costs the send about what encoding the state costs, instead of an enqueue.
struct ValueEncoding<State, Action>: Sendable {
  let state: @Sendable (State) -> any Encodable & Sendable
  let action: @Sendable (Action) -> any Encodable & Sendable
  /// Whether values are encoded on the sending thread.
  let encodesWhereItIs: Bool
  /// A state as the recorder looks for its shared values in it, on the sending thread: the
  /// state itself, not JSON made of it, whose shared values are values like any other.
  let sharedSource: @Sendable (State) -> any Encodable
  /// An action as the recorder looks for the shared values it carries (a pushed screen's state
  /// holding a part of the list's): the action itself, as for a state.
  let actionSharedSource: @Sendable (Action) -> any Encodable
}

extension ValueEncoding where State: Encodable & Sendable, Action: Encodable & Sendable {
  static var codable: Self {
    Self(
      state: { $0 }, action: { $0 }, encodesWhereItIs: false, sharedSource: { $0 },
      actionSharedSource: { $0 })
  }
}

extension ValueEncoding where State: Sendable, Action: Sendable {
  static var sendable: Self {
    Self(
      state: { handOver($0) }, action: { handOver($0) }, encodesWhereItIs: false,
      sharedSource: { handOver($0) }, actionSharedSource: { handOver($0) })
  }
}

extension ValueEncoding {
  static var whereItIs: Self {
    Self(
      state: { encodeNow($0) }, action: { encodeNow($0) }, encodesWhereItIs: true,
      sharedSource: { _ReflectedValue($0) }, actionSharedSource: { _ReflectedValue($0) })
  }
}

/// A `Sendable` value as the writer takes it: as it is when it is `Encodable`, else wrapped.
private func handOver<Value: Sendable>(_ value: Value) -> any Encodable & Sendable {
  if let encodable = value as? any Encodable {
    // NB: `Value` is `Sendable`, and `Sendable` adds nothing to an existential's layout.
    return unsafeBitCast(encodable, to: (any Encodable & Sendable).self)
  }
  return Reflected(value: value)
}

/// A value encoded now, on the sending thread: its JSON, or why it could not be.
private func encodeNow<Value>(_ value: Value) -> any Encodable & Sendable {
  do {
    let data = try JSONEncoder().encode(_ReflectedValue(value))
    return try JSONDecoder().decode(JSONValue.self, from: data)
  } catch {
    return EncodingFailed(error: error)
  }
}

/// A value of a `Sendable` type without `Encodable`, written by reflection on the writer's
/// thread.
private struct Reflected<Value: Sendable>: Encodable, Sendable {
  let value: Value

  func encode(to encoder: any Encoder) throws {
    try _ReflectedValue(self.value).encode(to: encoder)
  }
}

/// A value that could not be encoded where it was: the writer notes why, as for any value that
/// does not encode.
private struct EncodingFailed: Encodable, Sendable {
  /// The error encoding it threw, which says what failed and where.
  let error: any Error

  func encode(to encoder: any Encoder) throws {
    throw self.error
  }
}
