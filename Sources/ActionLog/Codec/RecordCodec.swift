import Foundation
import StepChanges

/// Encodes and decodes record payloads: the one seam through which every payload passes, so a
/// faster JSON implementation can replace Foundation's without touching the format or its
/// callers.
///
/// An encoder must produce compact JSON with object keys sorted by their UTF-8 bytes and no raw
/// newline, so that recordings are byte-reproducible and one record stays one line.
public protocol RecordCodec: Sendable {
  /// Encodes a value as one line of compact, key-sorted JSON.
  func encode<T: Encodable>(_ value: T) throws -> [UInt8]

  /// Decodes a value from JSON bytes.
  func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T

  /// Appends what ``encode(_:)`` returns to `buffer`; on a throw, `buffer` is as it was.
  func encode<T: Encodable>(_ value: T, appendingTo buffer: inout [UInt8]) throws
}

extension RecordCodec {
  public func encode<T: Encodable>(_ value: T, appendingTo buffer: inout [UInt8]) throws {
    buffer.append(contentsOf: try self.encode(value))
  }
}

/// The default record codec: encodes with ActionLog's own compact JSON encoder, which writes the
/// bytes Foundation's `JSONEncoder` writes with much less work (and hands Foundation what it
/// does not handle itself), and decodes with its own decoder over one pass of the bytes, which
/// accepts what Foundation's `JSONDecoder` accepts and fails as it does.
///
/// Recording encodes on the writer's background thread; the faster it is done, the less that
/// thread competes with the app's for the processor's caches.
public struct CompactJSONCodec: RecordCodec {
  /// Creates the codec.
  public init() {}

  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    try self.encode(value, appendingTo: &bytes)
    return bytes
  }

  /// Writes the value's JSON straight into `buffer`, without an array of its own.
  public func encode<T: Encodable>(_ value: T, appendingTo buffer: inout [UInt8]) throws {
    try self.encode(value, appendingTo: &buffer, with: JSONStreamWriter())
  }

  /// Writes the value's JSON into `buffer` with `writer`, which a caller encoding one value
  /// after another keeps; Foundation writes what the writer leaves to it.
  func encode<T: Encodable>(
    _ value: T, appendingTo buffer: inout [UInt8], with writer: JSONStreamWriter
  ) throws {
    if writer.encode(value, appendingTo: &buffer) { return }
    buffer.append(contentsOf: try FoundationJSONCodec().encode(value))
  }

  /// As ``encode(_:appendingTo:with:)``, for a value whose type has generated code: called
  /// directly, not found by a cast.
  func encode<T: Encodable & _JSONEncodable>(
    _ value: T, appendingTo buffer: inout [UInt8], with writer: JSONStreamWriter
  ) throws {
    if writer.encodeGenerated(value, appendingTo: &buffer)
      || writer.encode(value, appendingTo: &buffer)
    {
      return
    }
    buffer.append(contentsOf: try FoundationJSONCodec().encode(value))
  }

  public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
    try TapeJSONDecoder().decode(type, from: bytes)
  }

  /// The value as its type's generated code alone reads it (``StepChanges/_JSONDecodable``):
  /// `nil` when it has none, or leaves the value to `Codable`.
  @_spi(Internals)
  public func decodeByGeneratedCode<T: Decodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer
  ) -> T? {
    guard let tape = try? JSONTape(bytes) else { return nil }
    return TapeDocument(tokens: tape.tokens, bytes: bytes).generated(type, at: 0)
  }
}

/// The record codec built on Foundation's `JSONEncoder` and `JSONDecoder`.
public struct FoundationJSONCodec: RecordCodec {
  /// Creates the codec.
  public init() {}

  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
  }

  public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
    guard let base = bytes.baseAddress else {
      return try JSONDecoder().decode(type, from: Data())
    }
    let data = Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none
    )
    return try JSONDecoder().decode(type, from: data)
  }
}

/// The deepest nesting of JSON arrays and objects in `bytes`, counted outside strings; stops
/// counting once `limit` is exceeded.
func jsonDepth(of bytes: UnsafeRawBufferPointer, limit: Int) -> Int {
  var depth = 0
  var deepest = 0
  var inString = false
  var escaped = false
  for byte in bytes {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      continue
    }
    switch byte {
    case UInt8(ascii: "\""):
      inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth += 1
      if depth > deepest {
        deepest = depth
        if deepest > limit { return deepest }
      }
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      depth -= 1
    default:
      break
    }
  }
  return deepest
}

extension DecodingError {
  /// The coding path of the container where decoding failed.
  var codingPath: [any CodingKey] {
    switch self {
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .keyNotFound(_, context), let .dataCorrupted(context):
      context.codingPath
    @unknown default:
      []
    }
  }

  /// The coding path of the error, as `todos[0].title`.
  public var codingPathDescription: String {
    var text = ""
    for key in self.codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    if case let .keyNotFound(key, _) = self {
      text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
    }
    return text
  }

  /// What went wrong, without the coding path.
  public var reason: String {
    switch self {
    case let .typeMismatch(type, context):
      return "expected \(type): \(context.debugDescription)"
    case let .valueNotFound(type, context):
      return "missing \(type): \(context.debugDescription)"
    case let .keyNotFound(key, _):
      return "the key \"\(key.stringValue)\" is missing"
    case let .dataCorrupted(context):
      return context.debugDescription
    @unknown default:
      return "\(self)"
    }
  }
}
