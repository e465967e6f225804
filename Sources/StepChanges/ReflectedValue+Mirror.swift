@_spi(Reflection) import Swift
import Foundation
import Synchronization

// What reflection asks of `Mirror`: the values whose memory a route does not read (a class, a
// type with a custom mirror, a dictionary, what has no shape of data).

/// The existential properties found for each type (see `_Reflection.existentialFields(of:)`).
private let existentialFieldsFound = Mutex<[ObjectIdentifier: Set<String>]>([:])

/// A value that erases the type of what it holds (`AnyHashableSendable`, `AnyHashable`):
/// reflection writes what it holds with its type's name, `{"$type":"Swift.Int","$value":1}`,
/// and builds it back from them.
extension _Reflection {
  /// `value` as `Mirror` shows it: a class, a type with a custom mirror, a dictionary, what
  /// has no shape of data.
  func encode(mirroring value: Any, to encoder: any Encoder) throws {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else {
        var container = encoder.singleValueContainer()
        return try container.encodeNil()
      }
      try self.encode(wrapped, to: encoder)
    case .enum:
      if let raw = value as? any RawRepresentable {
        return try self.encode(raw.rawValue, to: encoder)
      }
      var container = encoder.container(keyedBy: Key.self)
      guard let payload = mirror.children.first else {
        _ = container.nestedContainer(keyedBy: Key.self, forKey: Key(Self.caseName(of: value)))
        return
      }
      let name = payload.label ?? Self.caseName(of: value)
      try container.encode(self.values(payload.value), forKey: Key(name))
    case .tuple:
      try self.values(value).encode(to: encoder)
    case .struct, .class:
      if let raw = value as? any RawRepresentable {
        return try self.encode(raw.rawValue, to: encoder)
      }
      var container = encoder.container(keyedBy: Key.self)
      let existentials = Self.existentialFields(of: type(of: value))
      for (label, child) in Self.storedProperties(of: mirror) {
        // NB: A `nil` optional is left out, as synthesized `encodeIfPresent` leaves it.
        if Self.isNil(child) { continue }
        if existentials.contains(label), !(child is any Error) {
          // NB: A property of a protocol's type: what it holds, with its type's name, which a
          // reader needs to build it back.
          try container.encode(Erased(value: child, reflection: self), forKey: Key(label))
          continue
        }
        try container.encode(self.node(child), forKey: Key(label))
      }
    case .collection, .set:
      var container = encoder.unkeyedContainer()
      for element in mirror.children {
        try container.encode(self.node(element.value))
      }
    case .dictionary:
      try self.encode(dictionary: mirror, to: encoder)
    default:
      var container = encoder.singleValueContainer()
      try container.encode(String(describing: value))
    }
  }

  func encode(dictionary mirror: Mirror, to encoder: any Encoder) throws {
    let pairs = mirror.children.compactMap { pair -> (key: Any, value: Any)? in
      let elements = Array(Mirror(reflecting: pair.value).children)
      guard elements.count == 2 else { return nil }
      return (elements[0].value, elements[1].value)
    }
    if pairs.allSatisfy({ $0.key is String || $0.key is Int }) {
      var container = encoder.container(keyedBy: Key.self)
      for pair in pairs {
        let key = pair.key as? String ?? String(describing: pair.key)
        try container.encode(self.node(pair.value), forKey: Key(key))
      }
    } else {
      var container = encoder.unkeyedContainer()
      for pair in pairs {
        try container.encode(self.node(pair.key))
        try container.encode(self.node(pair.value))
      }
    }
  }

  /// The names of `type`'s stored properties whose declared type is a protocol's (`any
  /// Hashable & Sendable`), found once for each type.
  static func existentialFields(of type: Any.Type) -> Set<String> {
    let key = ObjectIdentifier(type)
    if let known = existentialFieldsFound.withLock({ $0[key] }) { return known }
    var names: Set<String> = []
    if _ReflectedDecoding.kind(of: type) == .struct {
      _ = _forEachField(of: type, options: []) { name, _, _, kind in
        if kind == .existential { names.insert(String(cString: name)) }
        return true
      }
    }
    existentialFieldsFound.withLock { $0[key] = names }
    return names
  }

  /// A struct's or class's stored properties, a superclass's first, each under the key
  /// synthesized `Codable` gives it.
  static func storedProperties(of mirror: Mirror) -> [(String, Any)] {
    var properties = mirror.superclassMirror.map(Self.storedProperties(of:)) ?? []
    for (index, child) in mirror.children.enumerated() {
      var label = child.label ?? "_\(index)"
      if label.hasPrefix("_"), child.value is any _ReflectionUnwrapping {
        label.removeFirst()
      }
      properties.append((label, child.value))
    }
    return properties
  }
}
