import StepChanges

// The stream writer's way to the code the macros generate (``StepChanges/_JSONEncodable``).

extension JSONStreamWriter {
  /// Writes `value` with the code its type's macro generated (``StepChanges/_JSONEncodable``),
  /// the same bytes its `Codable` conformance writes; `false`, with nothing written, when it
  /// has none or it leaves the value to `Codable` (a value inside that cannot be written so).
  func writesGenerated<T: Encodable>(_ value: T) -> Bool {
    let generated: any _JSONEncodable
    if T.self == AnyEncodable.self {
      // NB: A record's value: the value it wraps has generated code, or goes through `Codable`
      // in this writer (not through the fallback's own).
      guard
        let inner = unsafeBitCast(value, to: AnyEncodable.self).value as? any _JSONEncodable
      else { return false }
      generated = inner
    } else if let value = value as? any _JSONEncodable {
      generated = value
    } else {
      return false
    }
    return self.writesGenerated(opened: generated)
  }

  /// Appends `value`, whose type's generated code writes it, to `buffer`, without finding that
  /// code by a cast; `false`, with `buffer` as it was, where that code leaves the value to
  /// `Codable` (then ``encode(_:appendingTo:)`` writes it).
  func encodeGenerated<T: _JSONEncodable>(_ value: T, appendingTo buffer: inout [UInt8]) -> Bool {
    swap(&self.output, &buffer)
    defer { swap(&self.output, &buffer) }
    return self.writesGenerated(opened: value)
  }

  private func writesGenerated(opened generated: some _JSONEncodable) -> Bool {
    let start = self.output.count
    var json = _JSONBuffer(fallback: self.fallback)
    swap(&json.bytes, &self.output)
    defer { swap(&json.bytes, &self.output) }
    do {
      try generated._encodeJSON(into: &json)
      return true
    } catch {
      json.bytes.removeLast(json.bytes.count - start)
      return false
    }
  }

  /// What generated code hands back for a value without generated code: this encoder's way,
  /// by a writer of its own (nested values each have one). Made once per writer.
  private var fallback: (any Encodable, inout [UInt8]) throws -> Void {
    if let made = self.madeFallback { return made }
    let made: (any Encodable, inout [UInt8]) throws -> Void = { [unowned self] value, bytes in
      let nested = self.nested ?? JSONStreamWriter()
      self.nested = nested
      guard nested.encode(value, appendingTo: &bytes) else { throw _JSONUnsupported() }
    }
    self.madeFallback = made
    return made
  }
}
