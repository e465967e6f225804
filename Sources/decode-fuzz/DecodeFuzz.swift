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
      Self.normalized(left) != Self.normalized(right)
    {
      fatalError("the decoders read different values: \(left) and \(right)")
    }
    if case let .failure(error) = ours, !(error is DecodingError) {
      fatalError("not a DecodingError: \(error)")
    }
    _ = try? CompactJSONCodec().decode(Sample.self, from: bytes)
    _ = try? CompactJSONCodec().decode([Sample].self, from: bytes)
  }

  /// Numbers as doubles: which decoder calls `1.0` an integer is not a difference in value.
  static func normalized(_ value: JSONValue) -> JSONValue {
    switch value {
    case let .integer(integer): .number(Double(integer))
    case let .array(elements): .array(elements.map(Self.normalized))
    case let .object(members): .object(members.mapValues(Self.normalized))
    default: value
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
