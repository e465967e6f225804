/// The bytes a JSON string's text (between its quotes) stands for: its escapes resolved, `\u`
/// surrogate pairs joined. Shared by the JSON value parser and the record decoder.
enum JSONEscapes {
  /// What is wrong with a string's escapes, and where in its text.
  struct Problem: Error {
    let offset: Int
    let reason: String
  }

  static func unescaped(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var offset = 0
    func hex4() throws(Problem) -> UInt32 {
      guard offset + 4 <= bytes.count else {
        throw Problem(offset: offset, reason: "a \\u escape needs four hexadecimal digits")
      }
      var value: UInt32 = 0
      for byte in bytes[offset..<offset + 4] {
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default:
          throw Problem(offset: offset, reason: "a \\u escape needs four hexadecimal digits")
        }
        value = value << 4 | UInt32(digit)
      }
      offset += 4
      return value
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      guard byte == UInt8(ascii: "\\") else {
        guard byte >= 0x20 else {
          throw Problem(offset: offset - 1, reason: "a control character in a string")
        }
        output.append(byte)
        continue
      }
      guard offset < bytes.count else {
        throw Problem(offset: offset, reason: "a string ends in \\")
      }
      let escape = bytes[offset]
      offset += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
          guard offset + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"),
            bytes[offset + 1] == UInt8(ascii: "u")
          else { throw Problem(offset: offset, reason: "a lone surrogate") }
          offset += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw Problem(offset: offset, reason: "a lone surrogate")
          }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else {
          throw Problem(offset: offset, reason: "a lone surrogate")
        }
        output.append(contentsOf: UTF8.encode(unicode)!)
      default:
        throw Problem(offset: offset - 1, reason: "an unknown escape")
      }
    }
    return output
  }
}
