import ActionLogScan
import CRC32C

/// The framing of one record: `crc32c-hex SP payload LF`.
enum Framing {
  /// Bytes in front of the payload: eight hex digits and a space.
  static let prefixLength = 9

  /// The CRC-32C of some bytes.
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    crc32c_extend(0, bytes.baseAddress, bytes.count)
  }

  /// Appends a framed record for `payload` to `output`.
  static func append(payload: [UInt8], to output: inout [UInt8]) {
    Self.append(to: &output) { $0.append(contentsOf: payload) }
  }

  /// Appends a framed record whose payload `body` appends to `output`, where it stays: no copy
  /// of it is made. On a throw, `output` is as it was.
  static func append(
    to output: inout [UInt8], payload body: (inout [UInt8]) throws -> Void
  ) rethrows {
    let start = output.count
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Self.prefixLength))
    do {
      try body(&output)
    } catch {
      output.removeLast(output.count - start)
      throw error
    }
    output.withUnsafeMutableBytes { bytes in
      let crc = Self.checksum(
        UnsafeRawBufferPointer(rebasing: bytes[(start + Self.prefixLength)...]))
      for digit in 0..<8 {
        bytes[start + digit] = Self.hexDigits[Int((crc >> UInt32(28 - 4 * digit)) & 0xF)]
      }
    }
    output.append(UInt8(ascii: "\n"))
  }

  /// The checksum written in front of a payload, or `nil` when the eight bytes are not lowercase
  /// hex digits followed by a space.
  static func parsePrefix(_ line: UnsafeRawBufferPointer) -> UInt32? {
    guard line.count >= Self.prefixLength,
      let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self)
    else { return nil }
    return Self.parsePrefix(base)
  }

  /// The checksum in front of a payload at least nine bytes long, read eight bytes at once.
  @inline(__always)
  static func parsePrefix(_ line: UnsafePointer<UInt8>) -> UInt32? {
    let value = als_read_prefix(line)
    return value >= 0 ? UInt32(truncatingIfNeeded: value) : nil
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The CRC-32C (Castagnoli) checksum of some bytes: the checksum in front of every record.
public func crc32c(_ bytes: [UInt8]) -> UInt32 {
  bytes.withUnsafeBytes { Framing.checksum($0) }
}
