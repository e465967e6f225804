import ComposableArchitecture
import CustomDump
import Foundation

/// A value of a type that is not `Decodable` (a reducer written without the macros, whose state
/// and actions say nothing of `Codable`), read from a recording by reflection as synthesized
/// `Decodable` would read it had the type declared it (``StepChanges/_ReflectedDecoding``).
/// What ``ReplayFeature`` and `assertReplay` replay such a reducer with; prints, diffs and
/// compares as the value.
public struct _Reflected<Value>: Codable, CustomDumpRepresentable {
  public var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  public init(from decoder: any Decoder) throws {
    self.value = try _RecordCoding.reflectedValue(Value.self, from: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    // NB: Through a container, so that an encoder writes the types it knows its own way.
    var container = encoder.singleValueContainer()
    try container.encode(_ReflectedValue(self.value))
  }

  public var customDumpValue: Any { self.value }
}

extension _Reflected: Equatable where Value: Equatable {}

/// What ``_Reflected`` wraps, told apart by its metatype.
protocol _ReflectedWrapper {
  static var wrappedType: Any.Type { get }
}

extension _Reflected: _ReflectedWrapper {
  static var wrappedType: Any.Type { Value.self }
}
extension _Reflected: Sendable where Value: Sendable {}

/// A reducer whose state and actions are not `Decodable`, replayed through ``_Reflected``.
public struct _ReflectedReducer<Base: Reducer>: Reducer {
  public typealias State = _Reflected<Base.State>
  public typealias Action = _Reflected<Base.Action>

  public let base: Base

  public init(_ base: Base) {
    self.base = base
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.base.reduce(into: &state.value, action: action.value).map { _Reflected($0) }
  }
}
