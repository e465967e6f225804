import ComposableArchitectureMacros
import MacroTesting
import Testing

/// `@_GeneratedCodec`: the code that writes and reads a `Codable` enum as its synthesized
/// conformance does, and none for an enum that codes itself otherwise.
@Suite(.macros(["_GeneratedCodec": GeneratedCodecMacro.self]))
struct GeneratedCodecMacroTests {
  @Test func anEnumWritesEachCaseWithItsValuesByKey() {
    assertMacro {
      """
      @_GeneratedCodec
      public enum Action: Codable, Equatable {
        case tapped
        case text(String)
        case pair(zeta: Int, String, alpha: Double?)
        case `default`(`in`: [Int?])
      }
      """
    } expansion: {
      """
      public enum Action: Codable, Equatable {
        case tapped
        case text(String)
        case pair(zeta: Int, String, alpha: Double?)
        case `default`(`in`: [Int?])

        public init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
          let (key, value) = try reader.soleMember(ofObject: index)
          try reader.requireObject(at: value)
          if reader.key(key, is: "tapped") {
            self = .tapped;
            return
          }
          if reader.key(key, is: "text") {
            self = .text(try reader.member("_0", of: value, as: (String).self));
            return
          }
          if reader.key(key, is: "pair") {
            self = .pair(zeta: try reader.member("zeta", of: value, as: (Int).self), try reader.member("_1", of: value, as: (String).self), alpha: try reader.member("alpha", of: value, as: (Double?).self));
            return
          }
          if reader.key(key, is: "default") {
            self = .`default`(`in`: try reader.member("in", of: value, as: ([Int?]).self));
            return
          }
          throw ComposableArchitecture._JSONUnsupported()
        }
      }

      extension Action: ComposableArchitecture._JSONEncodable {
        public func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
          switch self {
          case .tapped:
            json.endCase(json.enumCase("tapped"))
          case let .text(v0):
            var object = json.enumCase("text")
            try json.member("_0", v0, in: &object)
            json.endCase(object)
          case let .pair(v0, v1, v2):
            var object = json.enumCase("pair")
            try json.member("_1", v1, in: &object)
            try json.member("alpha", v2, in: &object)
            try json.member("zeta", v0, in: &object)
            json.endCase(object)
          case let .`default`(v0):
            var object = json.enumCase("default")
            try json.member("in", v0, in: &object)
            json.endCase(object)
          default:
            throw ComposableArchitecture._JSONUnsupported()
          }
        }
      }

      extension Action: ComposableArchitecture._JSONDecodable {
      }
      """
    }
  }

  @Test func anEnumWithARawValueOrItsOwnCodingHasNone() {
    assertMacro {
      """
      @_GeneratedCodec
      enum Filter: String, Codable {
        case all, active
      }
      @_GeneratedCodec
      enum Custom: Codable {
        case one
        enum CodingKeys: String, CodingKey { case one = "One" }
      }
      """
    } expansion: {
      """
      enum Filter: String, Codable {
        case all, active
      }
      enum Custom: Codable {
        case one
        enum CodingKeys: String, CodingKey { case one = "One" 
      }
      }
      """
    }
  }
}
