import StepChanges

// A record's envelope written straight into the writer's buffer, as its `Codable` conformance
// writes it (keys sorted, optional members absent when `nil`): with an action and a state that
// have generated code, no part of a record goes through `Codable`'s containers.

extension AnyEncodable: _JSONEncodable {
  /// The value's generated code, or its `Codable` conformance.
  func _encodeJSON(into json: inout _JSONBuffer) throws {
    if let generated = self.value as? any _JSONEncodable {
      try generated._encodeJSON(into: &json)
    } else {
      try json.fallback(self.value, &json.bytes)
    }
  }
}

extension ActionRecord: _JSONEncodable where Action == AnyEncodable {
  func _encodeJSON(into json: inout _JSONBuffer) throws {
    var object = json.object()
    try json.member("kind", self.kind, in: &object)
    try json.member("seq", self.seq, in: &object)
    try json.member("source", self.source, in: &object)
    try json.member("time", self.time, in: &object)
    try json.member("trigger", self.trigger, in: &object)
    try json.member("update", self.update, in: &object)
    try json.member("uses", self.uses, in: &object)
    try json.member("value", self.value, in: &object)
    try json.member("via", self.via, in: &object)
    try json.member("yields", self.yields, in: &object)
    json.end(object)
  }
}

extension CheckpointRecord: _JSONEncodable where State == AnyEncodable {
  func _encodeJSON(into json: inout _JSONBuffer) throws {
    var object = json.object()
    try json.member("kind", self.kind, in: &object)
    try json.member("seq", self.seq, in: &object)
    try json.member("value", self.value, in: &object)
    json.end(object)
  }
}

extension CapturedValues: _JSONEncodable {
  /// An object of the values by dependency name.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    try _JSONOutput.writeMembers(self.values, into: &json)
  }
}

extension JSONPatchOperation: _JSONEncodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    var object = json.object()
    if self.op == .move {
      try json.member("from", Self.pointer(self.from ?? []), in: &object)
    }
    try json.member("op", self.op.rawValue, in: &object)
    try json.member("path", self.pointer, in: &object)
    if self.op != .remove, self.op != .move {
      try json.member("value", self.value ?? .null, in: &object)
    }
    json.end(object)
  }
}

extension JSONValue: _JSONEncodable {
  /// As its `Codable` conformance writes it: a number as a `Double` is written.
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    switch self {
    case .null: json.bytes.append(contentsOf: "null".utf8)
    case let .bool(value): try value._encodeJSON(into: &json)
    case let .integer(value): try value._encodeJSON(into: &json)
    case let .number(value): try value._encodeJSON(into: &json)
    case let .string(value): _JSONOutput.writeString(value, into: &json.bytes)
    case let .array(values): try _JSONOutput.writeElements(values, into: &json)
    case let .object(members): try _JSONOutput.writeMembers(members, into: &json)
    }
  }
}

extension ActionRecord: _JSONDecodable where Action: Decodable {
  /// As its synthesized `Decodable` reads it; the action through its generated code, when its
  /// type has some.
  init(_json reader: _JSONReader, at index: Int) throws {
    try self.init(_json: reader, at: index) {
      try reader.member("value", of: index, as: Action.self)
    }
  }

  /// As ``init(_json:at:)``, the action read by `value`: an action type's generated code called
  /// directly, not found again for each record.
  @inline(__always)
  init(_json reader: _JSONReader, at index: Int, value: () throws -> Action) throws {
    try reader.requireObject(at: index)
    self.kind = try reader.member("kind", of: index, as: String.self)
    self.seq = try reader.member("seq", of: index, as: Int.self)
    self.source = try reader.member("source", of: index, as: String.self)
    self.time = try reader.member("time", of: index, as: Int64.self)
    self.trigger = try reader.member("trigger", of: index, as: Int?.self)
    self.uses = try reader.member("uses", of: index, as: CapturedValues?.self)
    self.value = try value()
    self.yields = try reader.member("yields", of: index, as: JSONValue?.self)
    self.update = try reader.member("update", of: index, as: [JSONPatchOperation]?.self)
    self.via = try reader.member("via", of: index, as: Int?.self)
  }
}

extension JSONPatchOperation: _JSONDecodable {
  /// As its `Codable` conformance reads it.
  public init(_json reader: _JSONReader, at index: Int) throws {
    guard let op = Kind(rawValue: try reader.member("op", of: index, as: String.self)),
      let path = Self.fastTokens(of: try reader.member("path", of: index, as: String.self))
    else { throw _JSONUnsupported() }
    self.init(op, path)
    if op == .move {
      guard let from = Self.fastTokens(of: try reader.member("from", of: index, as: String.self))
      else { throw _JSONUnsupported() }
      self.from = from
    } else if op != .remove {
      guard let value = try reader.member("value", ofObject: index) else {
        throw _JSONUnsupported()
      }
      self.value = try JSONValue(_json: reader, at: value)
    }
  }

  /// ``tokens(of:)``, without Foundation's replacing where no token holds a `~`.
  static func fastTokens(of pointer: String) -> [String]? {
    guard !pointer.utf8.contains(UInt8(ascii: "~")) else { return Self.tokens(of: pointer) }
    if pointer.isEmpty { return [] }
    guard pointer.utf8.first == UInt8(ascii: "/") else { return nil }
    return pointer.utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
    )
    .map { String(Substring($0)) }
  }
}

extension JSONValue: _JSONDecodable {
  /// As its `Codable` conformance reads it: an integer where one fits, the first of two members
  /// of the same name.
  public init(_json reader: _JSONReader, at index: Int) throws {
    guard let document = reader.document as? TapeDocument else {
      self = try reader.decode(JSONValue.self, at: index)
      return
    }
    self = try document.jsonValue(at: index)
  }
}

extension TapeDocument {
  /// The value at `index`, read as `JSONValue`'s `Codable` conformance reads it.
  func jsonValue(at index: Int) throws -> JSONValue {
    let token = self.tokens[index]
    switch token.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .string, .escapedString: return .string(try self.string(at: index, path: { nil }))
    case .number:
      if let integer = try? self.integer(Int64.self, at: index, path: { nil }) {
        return .integer(integer)
      }
      return .number(try self.double(at: index, path: { nil }))
    case .array:
      var values: [JSONValue] = []
      values.reserveCapacity(Int(token.count))
      var element = index + 1
      for _ in 0..<Int(token.count) {
        values.append(try self.jsonValue(at: element))
        element = Int(self.tokens[element].end)
      }
      return .array(values)
    case .object:
      var members: [String: JSONValue] = [:]
      members.reserveCapacity(Int(token.count))
      var member = index + 1
      for _ in 0..<Int(token.count) {
        let key = try self.string(at: member, path: { nil })
        if members[key] == nil { members[key] = try self.jsonValue(at: member + 1) }
        member = Int(self.tokens[member + 1].end)
      }
      return .object(members)
    }
  }
}

extension _JSONOutput {
  /// An object of `members`, its keys sorted by their UTF-8 bytes as the encoder sorts them.
  static func writeMembers<Value: _JSONEncodable>(
    _ members: [String: Value], into json: inout _JSONBuffer
  ) throws {
    json.bytes.append(UInt8(ascii: "{"))
    let keys =
      members.count == 1
      ? Array(members.keys) : members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for (index, key) in keys.enumerated() {
      if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
      _JSONOutput.writeString(key, into: &json.bytes)
      json.bytes.append(UInt8(ascii: ":"))
      try members[key]!._encodeJSON(into: &json)
    }
    json.bytes.append(UInt8(ascii: "}"))
  }
}
