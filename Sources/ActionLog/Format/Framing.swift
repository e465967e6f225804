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
    let crc = payload.withUnsafeBytes { Self.checksum($0) }
    for shift in stride(from: 28, through: 0, by: -4) {
      output.append(Self.hexDigits[Int((crc >> UInt32(shift)) & 0xF)])
    }
    output.append(UInt8(ascii: " "))
    output.append(contentsOf: payload)
    output.append(UInt8(ascii: "\n"))
  }

  /// The checksum written in front of a payload, or `nil` when the eight bytes are not lowercase
  /// hex digits followed by a space.
  static func parsePrefix(_ line: UnsafeRawBufferPointer) -> UInt32? {
    guard line.count >= Self.prefixLength, let base = line.baseAddress,
      base.load(fromByteOffset: 8, as: UInt8.self) == UInt8(ascii: " ")
    else { return nil }
    var value: UInt32 = 0
    for index in 0..<8 {
      let byte = base.load(fromByteOffset: index, as: UInt8.self)
      var digit = byte &- UInt8(ascii: "0")
      if digit > 9 {
        digit = byte &- UInt8(ascii: "a")
        guard digit < 6 else { return nil }
        digit += 10
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The CRC-32C (Castagnoli) checksum of some bytes: the checksum in front of every record.
public func crc32c(_ bytes: [UInt8]) -> UInt32 {
  bytes.withUnsafeBytes { Framing.checksum($0) }
}
