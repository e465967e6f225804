import CZlib
import Foundation

/// gzip (RFC 1952) through the system's zlib: what a browser's `DecompressionStream("gzip")`
/// unpacks.
enum Gzip {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static func compress(_ input: [UInt8], level: Int32 = 6) throws -> [UInt8] {
    var stream = z_stream()
    // 15 window bits, plus 16: a gzip header and trailer rather than zlib's.
    let status = deflateInit2_(
      &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
      Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw Failure(description: "zlib could not start (\(status))") }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
    let written = try input.withUnsafeBufferPointer { source -> Int in
      try output.withUnsafeMutableBufferPointer { destination -> Int in
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
        stream.avail_in = uInt(source.count)
        stream.next_out = destination.baseAddress
        stream.avail_out = uInt(destination.count)
        let result = deflate(&stream, Z_FINISH)
        guard result == Z_STREAM_END else {
          throw Failure(description: "zlib could not compress (\(result))")
        }
        return destination.count - Int(stream.avail_out)
      }
    }
    output.removeSubrange(written...)
    return output
  }
}
