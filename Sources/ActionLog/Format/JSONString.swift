/// JSON strings, escaped as Foundation's encoder escapes them without escaping slashes: the one
/// escaping the encoder, the rewriter and the tools share.
@_spi(Internals) public enum JSONString {
  /// Appends `string` to `output` in quotes, escaped.
  public static func write(_ string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var mark = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
        mark = index + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
          output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
          output.append(Self.hexDigit(byte >> 4))
          output.append(Self.hexDigit(byte & 0x0F))
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
    }
    output.append(UInt8(ascii: "\""))
  }

  /// `string` in quotes, escaped.
  public static func quoted(_ string: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(string.utf8.count + 2)
    Self.write(string, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }
}
