import Foundation

/// A place in a state that holds a shared value, found by encoding the state.
public struct _SharedHolder: @unchecked Sendable {
  // NB: Unchecked: the box locks; the access is immutable.
  /// Where the value sits in the state's JSON, as a JSON Pointer (`/page/preferences`).
  public let path: String
  /// The shared value's key as recordings name it (`.fileStorage(settings.json)`), or `nil`
  /// for a value shared without a key.
  public let name: String?
  /// Which shared value it is: the same for every holder of it.
  public let id: ObjectIdentifier
  /// Whether the place holds the whole value, rather than a part of it (`state.$settings.theme`).
  public let isWhole: Bool
  /// For a part, the stored properties from the whole value to it (`["theme"]`), or `nil` when
  /// they cannot be told.
  public let memberNames: [String]?
  let box: any _AnySharedBox
  let access: Any

  /// The whole value the place holds a part of, as JSON: where a reader finds the part when
  /// `memberNames` cannot say (an element of a collection, `$syncUps[id: id]`).
  public func wholeValueJSON() throws -> Data? {
    try self.box.encodedValue()
  }
}

/// Finds the places of a state that hold shared values.
public enum _SharedHolders {
  final class Collector: @unchecked Sendable {
    // NB: Unchecked: used on the one thread that encodes.
    var holders: [_SharedHolder] = []
  }

  @TaskLocal static var collector: Collector?

  /// Whether any shared value exists in the process: when none does, no state holds one.
  public static var anyExist: Bool { !_SharedBoxCount.isZero }

  /// The holders of shared values in `value`, and its JSON. Throws what encoding it throws.
  public static func of<T: Encodable>(_ value: T) throws -> (holders: [_SharedHolder], json: Data) {
    let json = try JSONEncoder().encode(value)
    return (try Self.holders(in: value), json)
  }

  /// The holders of shared values in `value`, without its JSON: what costs an action that
  /// holds none only a walk of its values.
  public static func holders<T: Encodable>(in value: T) throws -> [_SharedHolder] {
    // NB: Found apart from the JSON: `JSONEncoder` loses the keys of nested containers from
    // the coding paths it gives (see `_SharedPathFinder`).
    let collector = Collector()
    try Self.$collector.withValue(collector) {
      try value.encode(to: _SharedPathFinder())
    }
    return collector.holders
  }

  /// A coding path as a JSON Pointer (RFC 6901): `/todos/3/title`.
  public static func pointer(_ codingPath: [any CodingKey]) -> String {
    Self.pointer(codingPath.map { key in key.intValue.map(String.init) ?? key.stringValue })
  }

  /// Keys as a JSON Pointer (RFC 6901): `["todos", "3"]` → `/todos/3`.
  public static func pointer(_ keys: [String]) -> String {
    keys.map { key in
      "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }.joined()
  }
}

/// Encodes a shared value as a state captured earlier holds it, and tells a collector where it
/// is.
func _encodeShared<Value: Encodable>(
  _ access: any _SharedAccess<Value>, to encoder: any Encoder
) throws {
  if let collector = _SharedHolders.collector {
    let box = access.box
    collector.holders.append(
      _SharedHolder(
        path: _SharedHolders.pointer(encoder.codingPath), name: box.recordedName,
        id: ObjectIdentifier(box), isWhole: access.isWhole,
        memberNames: access.isWhole ? [] : access.memberNames, box: box, access: access))
  }
  let value: Value
  if _SharedAssertion.isAsserting {
    value = access.expected()
  } else if let moment = _SharedMoment.encoding {
    value = access.value(asOf: moment)
  } else {
    value = access.current()
  }
  try value.encode(to: encoder)
}

/// Decodes a shared value: its own, or in a replay the one the replay's scope says this place
/// shares.
func _decodeShared<Value: Decodable>(from decoder: any Decoder) throws -> any _SharedAccess<Value> {
  if let scope = _SharedReplayScope.current,
    let access = try scope.join(
      at: _SharedHolders.pointer(decoder.codingPath), decode: { try Value(from: decoder) })
  {
    return access
  }
  return _RootAccess(box: _SharedBox(value: try Value(from: decoder)), keyPath: \Value.self)
}
