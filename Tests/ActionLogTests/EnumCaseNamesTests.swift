@testable import ActionLog
import Foundation
import Testing

/// The case names an unknown-case message lists, read from the enum's synthesized `CodingKeys`.
@Suite struct EnumCaseNamesTests {
  enum One: Codable { case only }
  enum Several: Codable {
    case first
    case second(Int)
    case third(label: String, Bool)
  }
  enum Raw: String, Codable { case a, b }
  struct Plain: Codable { var x: Int }
  enum Custom: Decodable {
    case a
    init(from decoder: any Decoder) throws { self = .a }
  }

  @Test func namesTheCasesOfASynthesizedEnum() {
    #expect(EnumCaseNames.of(One.self) == ["only"])
    #expect(EnumCaseNames.of(Several.self) == ["first", "second", "third"])
  }

  @Test func namesNothingItCannotTell() {
    // A raw-value enum decodes a single value, a struct's keys are its fields, a hand-written
    // conformance asks for nothing: no case names.
    #expect(EnumCaseNames.of(Raw.self) == [])
    #expect(EnumCaseNames.of(Custom.self) == [])
    #expect(EnumCaseNames.of(Int.self) == [])
    #expect(EnumCaseNames.of(String.self) == [])
  }
}
