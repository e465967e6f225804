import Foundation

/// The forms Foundation's `JSONEncoder` writes values in (with its default strategies, slashes
/// unescaped), written straight into a byte buffer.
enum JSONOutput {
  /// A JSON string, escaped as Foundation escapes it without escaping slashes.
  static func writeString(_ string: String, into output: inout [UInt8]) {
    JSONString.write(string, into: &output)
  }

  /// A UUID as `uuidString` writes it, in quotes: upper-case hexadecimal in groups of 8, 4, 4,
  /// 4 and 12 digits.
  static func writeUUID(_ uuid: UUID, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    withUnsafeBytes(of: uuid.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          output.append(UInt8(ascii: "-"))
        }
        output.append(Self.upperHexDigit(byte >> 4))
        output.append(Self.upperHexDigit(byte & 0x0F))
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func upperHexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  static func writeInteger(_ value: some FixedWidthInteger, into output: inout [UInt8]) {
    guard value != 0 else {
      output.append(UInt8(ascii: "0"))
      return
    }
    // Digits of the magnitude, least significant first, as a negative number so that `.min`
    // fits.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      if value < 0 {
        var rest = Int64(value)
        while rest != 0 {
          buffer[count] = UInt8(ascii: "0") + UInt8(-(rest % 10))
          rest /= 10
          count += 1
        }
        output.append(UInt8(ascii: "-"))
      } else {
        var rest = UInt64(value)
        while rest != 0 {
          buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
          count += 1
        }
      }
      while count > 0 {
        count -= 1
        output.append(buffer[count])
      }
    }
  }

  /// A finite floating-point number as Foundation writes it: its description, without a
  /// trailing `.0`; `false` for a non-finite one, which Foundation refuses.
  static func writeFloatingPoint<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ value: F, into output: inout [UInt8]
  ) -> Bool {
    guard value.isFinite else { return false }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    output.append(contentsOf: text.utf8)
    return true
  }
}
