import ActionLog
import Foundation
import Testing

/// The record codec's decoder against Foundation's `JSONDecoder` on bytes that are not what the
/// encoder writes: the same kind of error at the same coding path, or the same value. (Generated
/// values are in `CodecPropertyTests`.)
@Suite struct TapeDecoderTests {
  enum Shape: Codable, Equatable {
    case none
    case unlabelled(Int, String)
    case labelled(width: Double, height: Double)
    case several(Int8, label: String?, [Shape])
  }

  func both<T: Decodable>(
    _ type: T.Type, _ bytes: [UInt8]
  ) -> (Result<T, any Error>, Result<T, any Error>) {
    bytes.withUnsafeBytes { buffer in
      (
        Result { try CompactJSONCodec().decode(type, from: buffer) },
        Result { try FoundationJSONCodec().decode(type, from: buffer) }
      )
    }
  }

  /// Whether two errors are the same kind at the same coding path.
  func agree(_ ours: any Error, _ foundation: any Error) -> Bool {
    guard let ours = ours as? DecodingError, let foundation = foundation as? DecodingError else {
      return false
    }
    func shape(_ error: DecodingError) -> String {
      switch error {
      case .keyNotFound(let key, _):
        "keyNotFound \(key.stringValue) at \(error.codingPathDescription)"
      case .typeMismatch: "typeMismatch at \(error.codingPathDescription)"
      case .valueNotFound: "valueNotFound at \(error.codingPathDescription)"
      // Foundation reports a number out of range as invalid JSON, without its path.
      case .dataCorrupted: "dataCorrupted"
      @unknown default: "unknown"
      }
    }
    return shape(ours) == shape(foundation)
  }

  @Test func wrongValuesFailAsInFoundation() throws {
    struct Inner: Codable, Equatable { var count: Int8; var name: String }
    struct Outer: Codable, Equatable { var inner: Inner; var list: [Inner]; var shape: Shape? }
    let cases = [
      #"{"inner":{"count":1,"name":"a"},"list":[]}"#,
      #"{"inner":{"count":1},"list":[]}"#,
      #"{"inner":{"count":"1","name":"a"},"list":[]}"#,
      #"{"inner":{"count":300,"name":"a"},"list":[]}"#,
      #"{"inner":{"count":-129,"name":"a"},"list":[]}"#,
      #"{"inner":{"count":1.5,"name":"a"},"list":[]}"#,
      #"{"inner":{"count":null,"name":"a"},"list":[]}"#,
      #"{"inner":{"count":1,"name":"a"},"list":[{"count":1,"name":"b"},{"count":2}]}"#,
      #"{"inner":{"count":1,"name":"a"},"list":{}}"#,
      #"{"inner":{"count":1,"name":"a"},"list":[],"shape":{"unknown":{}}}"#,
      #"{"inner":{"count":1,"name":"a"},"list":[],"shape":{"none":{},"labelled":{}}}"#,
      #"{"inner":{"count":1,"name":"a"},"list":[],"shape":{"labelled":{"width":1}}}"#,
      #"{"inner":{"count":1,"name":"a"},"list":[],"shape":{"unlabelled":{"_0":1,"_1":2}}}"#,
      #"{"inner":{"count":1,"name":"a"},"list":[],"inner":{"count":2,"name":"last"}}"#,
      #"{"inner":{"count":1e2,"name":"a"},"list":[]}"#,
      #"{"inner":{"count":1,"name":"\ud834\udd1e \u00e9"},"list":[]}"#,
    ]
    for text in cases {
      let (ours, foundation) = self.both(Outer.self, Array(text.utf8))
      switch (ours, foundation) {
      case let (.success(left), .success(right)):
        #expect(left == right, "\(text)")
      case let (.failure(left), .failure(right)):
        #expect(self.agree(left, right), "\(text)\nours: \(left)\nFoundation: \(right)")
      default:
        Issue.record("\(text)\nours: \(ours)\nFoundation: \(foundation)")
      }
    }
  }

  /// Integers written with a fraction or an exponent: read exactly, as Foundation reads them
  /// (the fuzzer found a Double in between rounding `9.0000000000000008e16`).
  @Test func integersInOtherFormsAreReadExactly() throws {
    let numbers = [
      "90000000000000008e0", "9.0000000000000008e16", "6.664e18", "1e19", "1e18", "-0.0", "1.000",
      "12.50e1", "1.5", "9.223372036854775808e18", "1e-3", "0e999",
      "18446744073709551615", "18446744073709551616", "100000000000000000000e-2", "-1", "127.0",
      "128", "-128e0", "-129", "0.000000000000000000000001e24",
    ]
    for number in numbers {
      let bytes = Array("[\(number)]".utf8)
      func same<T: Decodable & Equatable>(_ type: T.Type) {
        let (ours, foundation) = self.both([T].self, bytes)
        switch (ours, foundation) {
        case let (.success(left), .success(right)): #expect(left == right, "\(number) as \(T.self)")
        case (.failure, .failure): break
        default: Issue.record("\(number) as \(T.self): ours \(ours), Foundation \(foundation)")
        }
      }
      same(Int64.self)
      same(UInt64.self)
      same(Int8.self)
      same(Int.self)
    }
    // A large number with a fraction is no integer (Foundation reads the digits before its
    // point): found by the fuzzer.
    let fraction = Array("33280000000000034.6000".utf8)
    #expect(throws: DecodingError.self) {
      try fraction.withUnsafeBytes { try CompactJSONCodec().decode(Int64.self, from: $0) }
    }
    // Int64.min in exponent form is representable: read as it is (Foundation overflows on it).
    let minimum = Array("-9.223372036854775808e18".utf8)
    #expect(
      try minimum.withUnsafeBytes { try CompactJSONCodec().decode(Int64.self, from: $0) }
        == Int64.min)
  }

  @Test func uuidsReadAsFoundationReadsThem() throws {
    let texts = [
      "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
      "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "",
      "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC_0C247A3E6E5F",
      "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
    ]
    for text in texts {
      let (ours, foundation) = self.both([UUID].self, Array("[\"\(text)\"]".utf8))
      switch (ours, foundation) {
      case let (.success(left), .success(right)): #expect(left == right, "\(text)")
      case let (.failure(left), .failure(right)): #expect(self.agree(left, right), "\(text)")
      default: Issue.record("\(text): ours \(ours), Foundation \(foundation)")
      }
    }
  }

  @Test func textThatIsNotJSONIsATypedError() throws {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    let cases: [[UInt8]] = [
      Array(#"{"a":1"#.utf8), Array(#"{"a":1}x"#.utf8), Array(#"{"a":1,}"#.utf8),
      Array(#"{"a" 1}"#.utf8), Array(#"[1,2"#.utf8), Array(#"[01]"#.utf8), Array(#"[1.]"#.utf8),
      Array(#"[-]"#.utf8), Array(#"["\x"]"#.utf8), Array(#"["\ud800"]"#.utf8),
      Array(#"["\udc00"]"#.utf8), Array("[\"tab\there\"]".utf8), [0x5B, 0x22, 0xFF, 0x22, 0x5D],
      [0x5B, 0x22, 0xC3, 0x22, 0x5D], Array(deep.utf8), [], Array("   ".utf8),
      Array("[tru]".utf8), Array("nul".utf8), Array("[1e999]".utf8),
    ]
    for bytes in cases {
      let (ours, foundation) = self.both([String].self, bytes)
      let (numbers, _) = self.both([Double].self, bytes)
      let errors: [(any Error)?] = [
        ours.failure, numbers.failure,
      ]
      for error in errors {
        guard let error else {
          Issue.record("accepted \(String(decoding: bytes, as: UTF8.self).prefix(40))")
          continue
        }
        #expect(error is DecodingError, "\(error)")
      }
      if case .success = foundation {
        Issue.record("Foundation accepted \(String(decoding: bytes, as: UTF8.self).prefix(40))")
      }
    }
  }
}

extension Result {
  var failure: Failure? {
    if case let .failure(error) = self { return error }
    return nil
  }
}
