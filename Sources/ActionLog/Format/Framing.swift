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
    guard line.count >= Self.prefixLength,
      let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self)
    else { return nil }
    return Self.parsePrefix(base)
  }

  /// The checksum in front of a payload at least nine bytes long, read eight bytes at once.
  @inline(__always)
  static func parsePrefix(_ line: UnsafePointer<UInt8>) -> UInt32? {
    guard line[8] == UInt8(ascii: " ") else { return nil }
    let word = UInt64(littleEndian: UnsafeRawPointer(line).loadUnaligned(as: UInt64.self))
    // Digits are 0x30...0x39 and letters 0x61...0x66: bit 6 tells them apart.
    let isLetter = (word >> 6) & 0x0101_0101_0101_0101
    let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ isLetter &* 9
    let expectedHigh = 0x3030_3030_3030_3030 &+ isLetter &* 0x30
    let overNine = (nibbles &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010
    guard word & 0xF0F0_F0F0_F0F0_F0F0 == expectedHigh,
      nibbles & 0xF0F0_F0F0_F0F0_F0F0 == 0,  // no letter above 'f'
      overNine == isLetter &* 0x10  // digits at most 9, letters at least 'a'
    else { return nil }
    // The first character is the most significant nibble.
    var value = nibbles.byteSwapped
    value = (value | (value >> 4)) & 0x00FF_00FF_00FF_00FF
    value = (value | (value >> 8)) & 0x0000_FFFF_0000_FFFF
    value = (value | (value >> 16)) & 0x0000_0000_FFFF_FFFF
    return UInt32(truncatingIfNeeded: value)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The CRC-32C (Castagnoli) checksum of some bytes: the checksum in front of every record.
public func crc32c(_ bytes: [UInt8]) -> UInt32 {
  bytes.withUnsafeBytes { Framing.checksum($0) }
}
