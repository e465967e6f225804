import CasePaths
import ConcurrencyExtras
import CustomDump

/// An action that writes a value to a field of state, as a form does: what SwiftUI's bindings
/// send in TCA, sent here by code.
///
/// ```swift
/// store.send(.binding(.set(\.name, "Blob")))
/// await testStore.send(\.binding.name, "Blob") { $0.name = "Blob" }
/// ```
///
/// A reducer matches one field with a key path pattern: `case .binding(\.name):`.
///
/// In a recording, `{"name":"FIELD","value":VALUE}`: the field is named by the stored property
/// it writes, as ``ObservableState()`` lists them, and found again by that name on replay.
public struct BindingAction<Root>: @unchecked Sendable {
  // NB: Unchecked: the key path and the value are immutable and only read.
  /// The field written.
  public let keyPath: PartialKeyPath<Root>
  let value: any Sendable
  let apply: @Sendable (inout Root) -> Void
  let isEqual: @Sendable (BindingAction) -> Bool
  /// Set when the action is applied, for a store that sent it to say when nothing did.
  var applied: _BindingApplied?

  /// Writes `value` to the field at `keyPath`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> Self {
    // NB: Key paths are immutable values; this one is only read.
    nonisolated(unsafe) let keyPath = keyPath
    return Self(
      keyPath: keyPath,
      value: value,
      apply: { $0[keyPath: keyPath] = value },
      isEqual: { other in other.keyPath == keyPath && (other.value as? Value) == value }
    )
  }

  /// ``set(_:_:)`` for a value read back from a recording, whose type need not say it is
  /// `Sendable`: a replay makes and applies it on one thread.
  static func recorded<Value: Equatable & SendableMetatype>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> Self {
    nonisolated(unsafe) let keyPath = keyPath
    nonisolated(unsafe) let value = value
    return Self(
      keyPath: keyPath,
      // NB: `Sendable` adds nothing to an existential's layout: the value is held as it is, so
      // that it prints and compares as a sent one does.
      value: unsafeBitCast(value as Any, to: (any Sendable).self),
      apply: { $0[keyPath: keyPath] = value },
      isEqual: { other in other.keyPath == keyPath && (other.value as? Value) == value }
    )
  }

  /// Writes the value to the state.
  public func set(_ root: inout Root) {
    self.apply(&root)
    self.applied?.mark()
  }

  /// Whether the action writes the field at `keyPath`: `case .binding(\.name):`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }
}

/// Whether a binding action sent from a store was applied by a ``BindingReducer``.
final class _BindingApplied: Sendable {
  private let storage = LockIsolated(false)
  var value: Bool { self.storage.value }
  func mark() { self.storage.setValue(true) }
}

extension BindingAction: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.isEqual(rhs)
  }
}

extension BindingAction: CasePathable {
  /// The fields of `Root` as cases of a binding action: `\.binding.name`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The action that writes the field at `keyPath`, and the value it writes.
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value>
    ) -> AnyCasePath<BindingAction, Value> {
      nonisolated(unsafe) let keyPath = keyPath
      return AnyCasePath(
        embed: { .set(keyPath, $0) },
        extract: { $0.keyPath == keyPath ? $0.value as? Value : nil }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension BindingAction: CustomDumpStringConvertible {
  /// `.set(\.name, "Blob")`, the field named when the state lists its fields.
  public var customDumpDescription: String {
    let field = _bindableField(of: self.keyPath).map { "\\.\($0.name)" } ?? "\(self.keyPath)"
    return ".set(\(field), \(String(customDumping: self.value)))"
  }
}

/// An action that has a case for bindings: `case binding(BindingAction<State>)`.
public protocol BindableAction {
  /// The state the bindings write.
  associatedtype State
  /// The action for a binding.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding this action holds, if it is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The binding action that sets `keyPath` to `value`: `.set(\.isOn, true)` for
  /// `.binding(.set(\.isOn, true))`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>, _ value: Value
  ) -> Self {
    self.binding(.set(keyPath, value))
  }

  /// The binding this action holds, if it is its `binding` case.
  public var binding: BindingAction<State>? {
    let child = Mirror(reflecting: self).children.first
    guard child?.label == "binding" else { return nil }
    return child?.value as? BindingAction<State>
  }
}
