import Foundation
import StepChanges

// The navigation types a state or an action without `Codable` holds, read back from what
// reflection wrote: by case for the actions (an `indirect` case cannot be built in place), the
// stack in the shape of its own `Codable`, a presentation as what it presents.

extension PresentationAction: _ReflectedDecodable {
  /// A presentation's action whose feature's action is not `Decodable`, as reflection writes it
  /// (`{"dismiss":{}}`, `{"presented":{"_0":…}}`): built by its case, since an `indirect` case
  /// cannot be built in place.
  public static func _reflectedDecode(from decoder: any Decoder) throws -> Any {
    let container = try decoder.container(keyedBy: _RecordCodingKey.self)
    if container.contains(_RecordCodingKey("presented")) {
      let values = try container.nestedContainer(
        keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey("presented"))
      return Self.presented(
        try _ReflectedDecoding.decode(
          Action.self, from: values.superDecoder(forKey: _RecordCodingKey("_0"))))
    }
    guard container.contains(_RecordCodingKey("dismiss")) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "A presentation action is \"dismiss\" or \"presented\"."))
    }
    return Self.dismiss
  }
}

extension StackAction: _ReflectedDecodable {
  /// A stack's action whose screens' state or action is not `Decodable`, as reflection writes it
  /// (`{"element":{"id":0,"action":…}}`, `{"popFrom":{"id":0}}`, `{"push":{"id":0,"state":…}}`):
  /// built by its case, since an `indirect` case cannot be built in place.
  public static func _reflectedDecode(from decoder: any Decoder) throws -> Any {
    let container = try decoder.container(keyedBy: _RecordCodingKey.self)
    func values(_ name: String) throws -> KeyedDecodingContainer<_RecordCodingKey> {
      try container.nestedContainer(keyedBy: _RecordCodingKey.self, forKey: _RecordCodingKey(name))
    }
    let id = _RecordCodingKey("id")
    if container.contains(_RecordCodingKey("element")) {
      let values = try values("element")
      return Self.element(
        id: try values.decode(StackElementID.self, forKey: id),
        action: try _ReflectedDecoding.decode(
          Action.self, from: values.superDecoder(forKey: _RecordCodingKey("action"))))
    }
    if container.contains(_RecordCodingKey("popFrom")) {
      return Self.popFrom(id: try values("popFrom").decode(StackElementID.self, forKey: id))
    }
    guard container.contains(_RecordCodingKey("push")) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "A stack action is \"element\", \"popFrom\" or \"push\"."))
    }
    let values = try values("push")
    return Self.push(
      id: try values.decode(StackElementID.self, forKey: id),
      state: try _ReflectedDecoding.decode(
        State.self, from: values.superDecoder(forKey: _RecordCodingKey("state"))))
  }
}

extension StackState: _ReflectedDecodable {
  /// A stack of screens that are not `Decodable`, as reflection writes it (the shape of the
  /// stack's own `Codable`): each screen built back by reflection, under its identity.
  public static func _reflectedDecode(from decoder: any Decoder) throws -> Any {
    var container = try decoder.unkeyedContainer()
    var stack = Self()
    while !container.isAtEnd {
      let entry = try container.nestedContainer(keyedBy: _RecordCodingKey.self)
      let id = try entry.decode(StackElementID.self, forKey: _RecordCodingKey("id"))
      guard stack[id: id] == nil else {
        throw DecodingError.dataCorruptedError(
          forKey: _RecordCodingKey("id"), in: entry,
          debugDescription: "Two screens of the stack have the identity \(id.rawValue).")
      }
      let element = try _ReflectedDecoding.decode(
        Element.self, from: entry.superDecoder(forKey: _RecordCodingKey("element")))
      stack.append(element, id: id)
    }
    stack.mounted = stack.ids
    return stack
  }
}
