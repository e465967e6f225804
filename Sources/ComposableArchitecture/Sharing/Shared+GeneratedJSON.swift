import StepChanges

// A shared value is written and read by its `Codable` conformance alone: where it sits in the
// state (the coding path) names it, and generated code does not keep paths. Meeting one, the
// generated code of the state around it gives the whole value to `Codable`.

extension Shared: _JSONEncodable where Value: Encodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    throw _JSONUnsupported()
  }
}

extension Shared: _JSONDecodable where Value: Decodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    throw _JSONUnsupported()
  }
}

extension SharedReader: _JSONEncodable where Value: Encodable {
  public func _encodeJSON(into json: inout _JSONBuffer) throws {
    throw _JSONUnsupported()
  }
}

extension SharedReader: _JSONDecodable where Value: Decodable {
  public init(_json reader: _JSONReader, at index: Int) throws {
    throw _JSONUnsupported()
  }
}
