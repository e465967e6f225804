import CasePaths
import CustomDump

/// A field that bindings may write, in a state without ``ObservableState()``: TCA's way before
/// 1.7. Binding actions name it by its projection, `\.$name`.
///
/// ```swift
/// struct State { @BindingState var name = "" }
/// store.send(.binding(.set(\.$name, "Blob")))
/// ```
@available(
  *, deprecated, message: "Use '@ObservableState' and write the field's key path, instead."
)
@propertyWrapper
public struct BindingState<Value> {
  /// The field's value.
  public var wrappedValue: Value

  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// The field itself, for a binding action's key path: `\.$name`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

@available(*, deprecated)
extension BindingState: Equatable where Value: Equatable {}
@available(*, deprecated)
extension BindingState: Hashable where Value: Hashable {}
@available(*, deprecated)
extension BindingState: Sendable where Value: Sendable {}

@available(*, deprecated)
extension BindingState: CustomDumpRepresentable {
  public var customDumpValue: Any { self.wrappedValue }
}

@available(*, deprecated)
extension BindingAction {
  /// Writes `value` to the ``BindingState`` field at `keyPath`: `.set(\.$name, "Blob")`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, BindingState<Value>>, _ value: Value
  ) -> Self {
    .set(keyPath.appending(path: \.wrappedValue), value)
  }

  /// Whether the action writes the ``BindingState`` field at `keyPath`: `case .binding(\.$name):`.
  public static func ~= <Value>(
    keyPath: WritableKeyPath<Root, BindingState<Value>>, action: Self
  ) -> Bool {
    action.keyPath == keyPath.appending(path: \.wrappedValue)
  }
}

@available(*, deprecated)
extension BindingAction.AllCasePaths {
  /// The action that writes the ``BindingState`` field at `keyPath`: `\.binding.$name`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, BindingState<Value>>
  ) -> AnyCasePath<BindingAction, Value> {
    self[dynamicMember: keyPath.appending(path: \.wrappedValue)]
  }
}
