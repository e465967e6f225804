import StepChanges

/// JSON strings, escaped as Foundation's encoder escapes them without escaping slashes: the one
/// escaping the encoder, the rewriter and the tools share.
@_spi(Internals) public enum JSONString {
  /// Appends `string` to `output` in quotes, escaped.
  public static func write(_ string: String, into output: inout [UInt8]) {
    _JSONOutput.writeString(string, into: &output)
  }

  /// `string` in quotes, escaped.
  public static func quoted(_ string: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(string.utf8.count + 2)
    Self.write(string, into: &output)
    return String(decoding: output, as: UTF8.self)
  }
}
