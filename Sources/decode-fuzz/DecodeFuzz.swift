import ActionLog
import Foundation

/// The record codec's decoder on arbitrary bytes: it must never crash, and where it and
/// Foundation's `JSONDecoder` both read a value, they must read the same one.
///
/// Built with `-sanitize=fuzzer -DFUZZING` (Tools/fuzz-decoder), libFuzzer drives it. Built
/// plainly, `decode-fuzz FILE…` runs each file once, as the tests do with the committed corpus.
enum DecodeFuzz {
  /// A value of many shapes, to reach the typed containers.
  struct Sample: Decodable {
    enum Shape: Decodable {
      case none
      case unlabelled(Int, String)
      case labelled(width: Double, height: Float?)
    }
    var int8: Int8?
    var uint64: UInt64?
    var int: Int?
    var double: Double?
    var string: String?
    var flag: Bool?
    var list: [Sample]?
    var byName: [String: Int]?
    var byNumber: [Int: String]?
    var shape: Shape?
    var date: Date?
    var uuid: UUID?
    var data: Data?
    var url: URL?
    var decimal: Decimal?
  }

  static func check(_ bytes: UnsafeRawBufferPointer) {
    let ours = Result { try CompactJSONCodec().decode(JSONValue.self, from: bytes) }
    let foundation = Result { try FoundationJSONCodec().decode(JSONValue.self, from: bytes) }
    if case let .success(left) = ours, case let .success(right) = foundation,
      !Self.agree(left, right)
    {
      fatalError("the decoders read different values: \(left) and \(right)")
    }
    if case let .failure(error) = ours, !(error is DecodingError) {
      fatalError("not a DecodingError: \(error)")
    }
    _ = try? CompactJSONCodec().decode(Sample.self, from: bytes)
    _ = try? CompactJSONCodec().decode([Sample].self, from: bytes)
  }

  /// Whether two readings agree. Numbers compare as doubles, to within rounding: which decoder
  /// calls `1.0` an integer is no difference in value, and Foundation reads a large number with
  /// a fraction (`33280000000000034.6`) as the integer before its point, where this decoder
  /// reads it as the number it is.
  static func agree(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case let (.array(left), .array(right)):
      return left.count == right.count && zip(left, right).allSatisfy { Self.agree($0, $1) }
    case let (.object(left), .object(right)):
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { Self.agree(value, $0) } ?? false }
    default:
      guard let left = Self.number(left), let right = Self.number(right) else {
        return left == right
      }
      return left == right || abs(left - right) <= max(abs(left), abs(right)) * 1e-15
    }
  }

  static func number(_ value: JSONValue) -> Double? {
    switch value {
    case let .integer(integer): Double(integer)
    case let .number(number): number
    default: nil
    }
  }
}

#if FUZZING
  /// libFuzzer's entry for a program with a `main` of its own.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32
#endif

@main
struct DecodeFuzzMain {
  static func main() throws {
    #if FUZZING
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      exit(
        runFuzzerDriver(&argc, &argv) { data, size in
          DecodeFuzz.check(UnsafeRawBufferPointer(start: data, count: size))
          return 0
        })
    #else
      let files = CommandLine.arguments.dropFirst()
      for file in files {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes.withUnsafeBytes { DecodeFuzz.check($0) }
      }
      print("decode-fuzz: \(files.count) inputs, none crashed")
    #endif
  }
}
