import Foundation
import StepChanges
import Testing

/// The reflection writer gives a value the JSON synthesized `Codable` would: compared, shape by
/// shape, with what `JSONEncoder` writes of the same value through its synthesized conformance.
@Suite struct ReflectedValueTests {
  enum Payloads: Codable, Equatable, Sendable {
    case none
    case one(Int)
    case labeled(x: Int)
    case two(Int, String)
    case named(x: Int, y: String)
    case mixed(Int, y: String)
    case optional(Int?, label: String?)
    case nested(Inner)
    indirect case tree(Payloads, Payloads)
  }

  enum Raw: String, Codable { case first, second = "2nd" }

  struct Inner: Codable, Equatable, Sendable {
    var name: String
    var tags: [String]
    var score: Double?
  }

  final class Node: Codable {
    var value: Int
    var children: [Node]
    init(_ value: Int, _ children: [Node] = []) {
      self.value = value
      self.children = children
    }
  }

  struct Everything: Codable {
    var string = "a \"quoted\" /slash/ é"
    var int = -42
    var uint8: UInt8 = 255
    var double = 2.5
    var bool = true
    var absent: Int? = nil
    var present: Int? = 7
    var nestedOptional: [Int?] = [1, nil, 3]
    var inner = Inner(name: "n", tags: ["x", "y"], score: nil)
    var inners = [Inner(name: "a", tags: [], score: 1)]
    var byName = ["b": 2, "a": 1]
    var byNumber = [3: "three"]
    var byUUID = [UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: true]
    var one: Set<String> = ["only"]
    var url = URL(string: "https://example.com/a?b=c")!
    var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var date = Date(timeIntervalSince1970: 1_000_000)
    var data = Data([0, 1, 2, 255])
    var raw = Raw.second
    var payloads: [Payloads] = [
      .none, .one(1), .labeled(x: 2), .two(3, "s"), .named(x: 4, y: "t"), .mixed(5, y: "u"),
      .optional(nil, label: "l"), .optional(6, label: nil),
      .nested(Inner(name: "i", tags: [], score: 0)),
      .tree(.one(1), .tree(.none, .labeled(x: 0))),
    ]
    var node = Node(1, [Node(2), Node(3, [Node(4)])])
  }

  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func everyShapeIsWrittenAsSynthesizedCodableWritesIt() throws {
    let value = Everything()
    #expect(try Self.json(_ReflectedValue(value, reflectsCodable: true)) == Self.json(value))
  }

  @Test(arguments: [
    Payloads.none, .one(1), .labeled(x: 2), .two(3, "s"), .named(x: 4, y: "t"), .mixed(5, y: "u"),
    .optional(nil, label: nil), .tree(.none, .none),
  ])
  func eachCaseIsWrittenAsSynthesizedCodableWritesIt(_ value: Payloads) throws {
    #expect(try Self.json(_ReflectedValue(value, reflectsCodable: true)) == Self.json(value))
  }

  @Test func topLevelValues() throws {
    for value in [1, 2] as [Int] {
      #expect(try Self.json(_ReflectedValue(value, reflectsCodable: true)) == Self.json(value))
    }
    let optional: Int? = nil
    #expect(try Self.json(_ReflectedValue(optional as Any, reflectsCodable: true)) == "null")
    #expect(try Self.json(_ReflectedValue([Raw.first], reflectsCodable: true)) == #"["first"]"#)
  }

  // MARK: - What Codable cannot say

  struct Forecast {
    var temperature: Double
    var summary: String?
    var kind: Kind
    enum Kind { case sunny, rain(millimetres: Int) }
  }

  final class Account {
    var owner = "Blob"
    var balance = 10
  }

  final class Savings {
    var rate = 2
  }

  struct Failure: Error, Codable, Equatable {
    var code: Int
  }

  struct Opaque: Error {}

  @Test func aModelWithoutCodable() throws {
    let forecast = Forecast(temperature: 21.5, summary: nil, kind: .rain(millimetres: 3))
    #expect(
      try Self.json(_ReflectedValue(forecast))
        == #"{"kind":{"rain":{"millimetres":3}},"temperature":21.5}"#)
    #expect(try Self.json(_ReflectedValue(Forecast.Kind.sunny)) == #"{"sunny":{}}"#)
  }

  @Test func aClassAndATuple() throws {
    #expect(try Self.json(_ReflectedValue(Account())) == #"{"balance":10,"owner":"Blob"}"#)
    #expect(try Self.json(_ReflectedValue((1, label: "x"))) == #"{"_0":1,"label":"x"}"#)
  }

  @Test func anErrorKeepsItsTypeItsDescriptionAndItsCodableForm() throws {
    let result: Result<Int, any Error> = .failure(Failure(code: 7))
    let written = try Self.json(_ReflectedValue(result))
    #expect(
      written
        == #"{"failure":{"_0":{"error":"ActionLogTests.ReflectedValueTests.Failure","#
        + #""localizedDescription":"\#(Failure(code: 7).localizedDescription)","value":{"code":7}}}}"#
    )
    // An error that is not `Codable`: its values, as reflection writes a struct's.
    let opaque = try Self.json(_ReflectedValue(Opaque() as any Error))
    #expect(opaque.hasPrefix(#"{"error":"ActionLogTests.ReflectedValueTests.Opaque","#))
    #expect(opaque.hasSuffix(#","value":{}}"#))
  }

  @Test func aDescribedEnumIsNamedByItsCase() throws {
    #expect(try Self.json(_ReflectedValue(Described.idle)) == #"{"idle":{}}"#)
  }

  // MARK: - Read from memory, or asked of Mirror

  struct Watching {
    weak var account: Account?
    var count = 1
  }

  struct Masked: CustomReflectable {
    var secret = "s"
    var shown = 2
    var customMirror: Mirror {
      Mirror(self, children: ["shown": self.shown], displayStyle: .struct)
    }
  }

  struct Holding {
    var held: any Sendable
    var label: String
  }

  enum Held {
    case account(Account)
    case pair(String, [Int])
    case idle
  }

  /// Reflection reads a struct's, a tuple's and an enum's values from memory, and asks `Mirror`
  /// where memory does not say: a weak reference, a custom mirror. The same bytes either way,
  /// value after value of one type.
  @Test func whatMemoryDoesNotSayIsAskedOfMirror() throws {
    let account = Account()
    for _ in 1...3 {
      #expect(
        try Self.json(_ReflectedValue(Watching(account: account)))
          == #"{"account":{"balance":10,"owner":"Blob"},"count":1}"#)
      #expect(try Self.json(_ReflectedValue(Watching(account: nil))) == #"{"count":1}"#)
      #expect(try Self.json(_ReflectedValue(Masked())) == #"{"shown":2}"#)
      #expect(
        try Self.json(_ReflectedValue(Holding(held: 1, label: "x")))
          == #"{"held":{"$type":"Swift.Int","$value":1},"label":"x"}"#)
      // NB: Each case read from a copy of the enum, the copy put back as it was: the account
      // and the array outlive every read.
      #expect(
        try Self.json(_ReflectedValue(Held.account(account)))
          == #"{"account":{"_0":{"balance":10,"owner":"Blob"}}}"#)
      #expect(
        try Self.json(_ReflectedValue(Held.pair("p", [1, 2])))
          == #"{"pair":{"_0":"p","_1":[1,2]}}"#)
      #expect(try Self.json(_ReflectedValue(Held.idle)) == #"{"idle":{}}"#)
      #expect(
        try Self.json(_ReflectedValue((1, nil as Int?, label: "x")))
          == #"{"_0":1,"label":"x"}"#)
    }
  }

  /// Reading an enum's values from a copy of it neither leaks nor frees what the case holds.
  @Test func readingACaseKeepsWhatItHoldsAlive() throws {
    weak var released: Account?
    do {
      let account = Account()
      released = account
      for _ in 1...100 { _ = try Self.json(_ReflectedValue(Held.account(account))) }
      #expect(account.owner == "Blob")
    }
    #expect(released == nil)
  }

  enum Described: CustomStringConvertible {
    case idle
    var description: String { "Described as something else" }
  }
}
