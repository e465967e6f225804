@_spi(Reflection) import Swift
import ConcurrencyExtras
import CustomDump

extension StatePath {
  /// A stored property of `value` named `name` (or its wrapper's `_name`), read through a key
  /// path found once for its type, where the value is walked as its plain mirror shows it;
  /// `nil` where the mirror must walk it (an optional, a custom dump or mirror, an enum, a
  /// class, a name it does not have).
  ///
  /// A mirror resolves every field's type by name at each read: a search that reads a path at
  /// every step pays for that at every step.
  static func storedProperty(_ name: String, of value: Any) -> Any? {
    guard let keyPath = Self.storedPropertyKeyPath(name, of: value) else { return nil }
    return value[keyPath: keyPath]
  }

  /// The key path ``storedProperty(_:of:)`` reads `name` of `value` through: one for each type
  /// of value and name, whatever the value.
  static func storedPropertyKeyPath(_ name: String, of value: Any) -> AnyKeyPath? {
    let type = Swift.type(of: value)
    let key = FieldKey(type: ObjectIdentifier(type), name: name)
    let found =
      fieldKeyPaths.withValue { $0[key] }
      ?? {
        let found = FoundKeyPath(keyPath: Self.keyPath(named: name, of: value))
        fieldKeyPaths.withValue { $0[key] = found }
        return found
      }()
    return found.keyPath
  }

  /// `_EachFieldOptions.ignoreUnknown`, a mutable static the compiler will not let us read.
  private static let ignoreUnknown = _EachFieldOptions(rawValue: 1 << 1)

  private struct FieldKey: Hashable {
    let type: ObjectIdentifier
    let name: String
  }

  /// A key path found for a type and a name, or none to use.
  private struct FoundKeyPath: @unchecked Sendable {
    // NB: A key path is immutable once made.
    let keyPath: AnyKeyPath?
  }

  /// The key paths found, by type and name.
  private static let fieldKeyPaths = LockIsolated<[FieldKey: FoundKeyPath]>([:])

  private static func keyPath(named name: String, of value: Any) -> AnyKeyPath? {
    let type = Swift.type(of: value)
    // NB: Only where `mirror(of:)` would reflect the value as it is, and for the property
    // its mirror would give: `name`, else `_name`.
    guard !(type is any _StatePathOptional.Type), !(type is any CustomDumpRepresentable.Type),
      !(type is any CustomDumpReflectable.Type), !(type is any CustomReflectable.Type)
    else { return nil }
    let mirror = Mirror(reflecting: value)
    let labels = mirror.children.compactMap(\.label)
    guard mirror.displayStyle == .struct,
      let label = labels.first(where: { $0 == name }) ?? labels.first(where: { $0 == "_" + name })
    else { return nil }
    func open<Root>(_: Root.Type) -> AnyKeyPath? {
      var found: AnyKeyPath?
      // NB: Stopping early reports a failure; fields it cannot name (closures) are skipped.
      _ = _forEachFieldWithKeyPath(of: Root.self, options: Self.ignoreUnknown) { field, keyPath in
        if found == nil, String(cString: field) == label { found = keyPath }
        return true
      }
      return found
    }
    return _openExistential(type, do: open)
  }
}
