import IdentifiedCollections
import StepChanges

// The core's coded types written as their `Codable` conformances write them, for the code the
// macros generate (``StepChanges/_JSONEncodable``): where what they hold has generated code
// too, the whole value is written without `Codable`'s containers.

extension IdentifiedArray: _JSONEncodable where Element: _JSONEncodable {
  /// The elements, in order, as an array.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    try _JSONOutput.writeElements(self.elements, into: &json)
  }
}

extension IdentifiedAction: _JSONEncodable where ID: _JSONEncodable, Action: _JSONEncodable {
  /// `{"element":{"action":ACTION,"id":ID}}`.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    switch self {
    case let .element(id, action):
      try _JSONOutput.writeElementCase(id: id, action: action, into: &json)
    }
  }
}

extension PresentationAction: _JSONEncodable where Action: _JSONEncodable {
  /// `{"dismiss":{}}`, or `{"presented":{"_0":ACTION}}`.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    switch self {
    case .dismiss:
      json.endCase(json.enumCase("dismiss"))
    case let .presented(action):
      var object = json.enumCase("presented")
      try json.member("_0", action, in: &object)
      json.endCase(object)
    }
  }
}

extension PresentationState: _JSONEncodable where State: _JSONEncodable {
  /// What is presented, or `null`.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    try self.wrappedValue._encodeJSON(into: &json)
  }
}

extension StackElementID: _JSONEncodable {
  /// Its number.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    try self.rawValue._encodeJSON(into: &json)
  }
}

extension StackState: _JSONEncodable where Element: _JSONEncodable {
  /// `[{"element":STATE,"id":N},…]`, from the bottom of the stack.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    json.bytes.append(UInt8(ascii: "["))
    for (index, id) in self.ids.enumerated() {
      if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
      var object = json.object()
      try json.member("element", self[id: id], in: &object)
      try json.member("id", id, in: &object)
      json.end(object)
    }
    json.bytes.append(UInt8(ascii: "]"))
  }
}

extension StackAction: _JSONEncodable where State: _JSONEncodable, Action: _JSONEncodable {
  /// `{"element":{"action":ACTION,"id":N}}`, `{"popFrom":{"id":N}}`, or
  /// `{"push":{"id":N,"state":STATE}}`.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    switch self {
    case let .element(id, action):
      try _JSONOutput.writeElementCase(id: id, action: action, into: &json)
    case let .popFrom(id):
      var object = json.enumCase("popFrom")
      try json.member("id", id, in: &object)
      json.endCase(object)
    case let .push(id, state):
      var object = json.enumCase("push")
      try json.member("id", id, in: &object)
      try json.member("state", state, in: &object)
      json.endCase(object)
    }
  }
}

extension IdentifiedArray: _JSONDecodable
where Element: _JSONDecodable & Identifiable, ID == Element.ID {
  /// From an array of elements of unique identities: one that repeats is left to `Codable`,
  /// which says so.
  @inlinable
  public init(_json reader: _JSONReader, at index: Int) throws {
    self.init()
    for element in try reader.elements(ofArray: index) {
      guard self.append(try Element(_json: reader, at: element)).inserted else {
        throw _JSONUnsupported()
      }
    }
  }
}

extension IdentifiedAction: _JSONDecodable where ID: _JSONDecodable, Action: _JSONDecodable {
  @inlinable
  public init(_json reader: _JSONReader, at index: Int) throws {
    let (key, value) = try reader.soleMember(ofObject: index)
    guard reader.key(key, is: "element") else { throw _JSONUnsupported() }
    self = .element(
      id: try reader.member("id", of: value), action: try reader.member("action", of: value))
  }
}

extension PresentationAction: _JSONDecodable where Action: _JSONDecodable {
  @inlinable
  public init(_json reader: _JSONReader, at index: Int) throws {
    let (key, value) = try reader.soleMember(ofObject: index)
    try reader.requireObject(at: value)
    if reader.key(key, is: "dismiss") {
      self = .dismiss
    } else if reader.key(key, is: "presented") {
      self = .presented(try reader.member("_0", of: value))
    } else {
      throw _JSONUnsupported()
    }
  }
}

extension PresentationState: _JSONDecodable where State: _JSONDecodable {
  @inlinable
  public init(_json reader: _JSONReader, at index: Int) throws {
    self.init(wrappedValue: reader.isNull(at: index) ? nil : try State(_json: reader, at: index))
  }
}

extension StackElementID: _JSONDecodable {
  @inlinable
  public init(_json reader: _JSONReader, at index: Int) throws {
    self.init(rawValue: try reader.integer(Int.self, at: index))
  }
}

extension _JSONOutput {
  /// An element's action, as `IdentifiedAction` and `StackAction` write it:
  /// `{"element":{"action":ACTION,"id":ID}}`.
  static func writeElementCase<ID: _JSONEncodable, Action: _JSONEncodable>(
    id: ID, action: Action, into json: inout _JSONBuffer
  ) throws {
    var object = json.enumCase("element")
    try json.member("action", action, in: &object)
    try json.member("id", id, in: &object)
    json.endCase(object)
  }
}
