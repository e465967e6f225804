import Foundation
import StepChanges

// The decoder's document as generated code reads it (``StepChanges/_JSONReading``): the same
// tokens and conversions as its containers', without them. Errors here carry no coding path:
// the caller decodes the value again with `Codable`, which names it.

extension TapeDocument: _JSONReading {
  func isNull(at index: Int) -> Bool {
    self.tokens[index].kind == .null
  }

  func requireObject(at index: Int) throws {
    guard self.tokens[index].kind == .object else { throw _JSONUnsupported() }
  }

  func member(_ key: StaticString, ofObject index: Int) throws -> Int? {
    let tokens = self.tokens
    guard tokens[index].kind == .object else { throw _JSONUnsupported() }
    var member = index + 1
    let end = Int(tokens[index].end)
    while member < end {
      let token = tokens[member]
      // NB: A key written with escapes is compared by `Codable`'s path.
      guard token.kind == .string else { throw _JSONUnsupported() }
      let found = key.withUTF8Buffer { wanted in
        Int(token.length) == wanted.count && wanted.elementsEqual(self.bytes(of: token))
      }
      if found { return member + 1 }
      member = Int(tokens[member + 1].end)
    }
    return nil
  }

  func soleMember(ofObject index: Int) throws -> (key: UnsafeRawBufferPointer, value: Int) {
    let token = self.tokens[index]
    guard token.kind == .object, token.count == 1, self.tokens[index + 1].kind == .string else {
      throw _JSONUnsupported()
    }
    return (self.bytes(of: self.tokens[index + 1]), index + 2)
  }

  func elements(ofArray index: Int) throws -> _JSONElements {
    let token = self.tokens[index]
    guard token.kind == .array else { throw _JSONUnsupported() }
    let tokens = self.tokens
    return _JSONElements(first: index + 1, count: Int(token.count)) { Int(tokens[$0].end) }
  }

  func string(at index: Int) throws -> String {
    try self.string(at: index, path: { nil })
  }

  func bool(at index: Int) throws -> Bool {
    try self.bool(at: index, path: { nil })
  }

  func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at index: Int) throws -> Integer {
    try self.integer(type, at: index, path: { nil })
  }

  func double(at index: Int) throws -> Double {
    try self.double(at: index, path: { nil })
  }

  func uuid(at index: Int) throws -> UUID {
    guard let uuid = self.parsedUUID(at: index) else { throw _JSONUnsupported() }
    return uuid
  }

  func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    try self.unbox(type, at: index, path: nil)
  }

  /// `type`'s value at `index` from its generated code, or `nil` when it has none or its code
  /// leaves it to `Codable`.
  func generated<T: Decodable>(_ type: T.Type, at index: Int) -> T? {
    guard let generated = type as? any _JSONDecodable.Type, _JSONGeneratedDecoding.isEnabled
    else { return nil }
    return (try? generated.init(_json: self, at: index)) as? T
  }
}
