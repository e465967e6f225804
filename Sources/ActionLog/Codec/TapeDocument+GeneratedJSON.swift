import Foundation
import StepChanges

// The decoder's document behind the reader generated code reads (``StepChanges/_JSONReader``):
// what that code hands back to it. Errors here carry no coding path: the caller decodes the
// value again with `Codable`, which names it.

extension TapeDocument: _JSONReaderSource {
  func escapedString(at index: Int) throws -> String {
    try self.string(at: index, path: { nil })
  }

  func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at index: Int) throws -> Integer {
    try self.integer(type, at: index, path: { nil })
  }

  func double(at index: Int) throws -> Double {
    try self.double(at: index, path: { nil })
  }

  func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    try self.unbox(type, at: index, path: nil)
  }

  /// `type`'s value at `index` from its generated code, or `nil` when it has none or its code
  /// leaves it to `Codable`.
  func generated<T: Decodable>(_ type: T.Type, at index: Int) -> T? {
    guard let generated = type as? any _JSONDecodable.Type, _JSONGeneratedDecoding.isEnabled
    else { return nil }
    return self.tokens.withUnsafeBufferPointer { tokens in
      let reader = _JSONReader(tokens: tokens, bytes: self.bytes, source: self)
      return Self.read(generated, as: T.self, from: reader, at: index)
    }
  }

  /// The value of `type`, which is `T`, opened: no existential box between them.
  private static func read<Generated: _JSONDecodable, T>(
    _ type: Generated.Type, as: T.Type, from reader: _JSONReader, at index: Int
  ) -> T? {
    guard let value = try? Generated(_json: reader, at: index) else { return nil }
    return value as? T
  }
}
