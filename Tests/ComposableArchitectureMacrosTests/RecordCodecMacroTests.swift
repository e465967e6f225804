import ComposableArchitectureMacros
import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing

/// `_RecordCodec`'s whole expansion: the `Codable` conformance of a type that does not say it is
/// `Codable`, member by member, in synthesized `Codable`'s shape.
// NB: The conformances a compiler passes for a type that has none of them: `Codable`, and the
// generated JSON code written beside it.
@Suite(
  .macros(
    [
      "_RecordCodec": MacroSpec(
        type: RecordCodecMacro.self,
        conformances: ["Decodable", "Encodable", "_JSONEncodable", "_JSONDecodable"])
    ])
)
struct RecordCodecMacroTests {
  @Test func aStruct() {
    assertMacro {
      """
      @_RecordCodec
      struct State: Equatable {
        @Presents var alert: AlertState<Action.Alert>?
        var results: [Result] = []
        var query: String?
        let version = 2
        var count: Int { results.count }

        struct Result: Equatable {
          var name: String
        }
        private enum CancelID { case search }
      }
      """
    } expansion: {
      #"""
      struct State: Equatable {
        @Presents var alert: AlertState<Action.Alert>?
        var results: [Result] = []
        var query: String?
        let version = 2
        var count: Int { results.count }
        @ComposableArchitecture._RecordCodec1

        struct Result: Equatable {
          var name: String
        }
        private enum CancelID { case search 
      }
      }

      extension State: Swift.Codable {
        init(from decoder: any Swift.Decoder) throws {
          let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
          self._alert = try ComposableArchitecture._RecordCoding.decode(container, "alert")
          self.results = try ComposableArchitecture._RecordCoding.decode(container, "results")
          self.query = try ComposableArchitecture._RecordCoding.decode(container, "query")
        }
        func encode(to encoder: any Swift.Encoder) throws {
          var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
          try ComposableArchitecture._RecordCoding.encode(self._alert, to: &container, "alert")
          try ComposableArchitecture._RecordCoding.encode(self.results, to: &container, "results")
          try ComposableArchitecture._RecordCoding.encode(self.query, to: &container, "query")
          try ComposableArchitecture._RecordCoding.encode(self.version, to: &container, "version")
        }
      }

      extension State: ComposableArchitecture._JSONEncodable {
        func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
          var object = json.object()
          try json.member("alert", self._alert, in: &object)
          try json.member("query", self.query, in: &object)
          try json.member("results", self.results, in: &object)
          try json.member("version", self.version, in: &object)
          json.end(object)
        }
      }

      extension State: ComposableArchitecture._JSONDecodable {
        init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
          try reader.requireObject(at: index)
          self._alert = try reader.member("alert", of: index, at: \Self._alert)
          self.results = try reader.member("results", of: index, at: \Self.results)
          self.query = try reader.member("query", of: index, at: \Self.query)
        }
      }
      """#
    }
  }

  @Test func anEnum() {
    assertMacro {
      """
      @_RecordCodec
      public enum Action {
        case response(Result<Forecast, any Error>)
        case tapped(id: Int, Location)
        case cleared
        case `default`

        public enum View: BindableAction {
          case binding(BindingAction<State>)
        }
      }
      """
    } expansion: {
      """
      public enum Action {
        case response(Result<Forecast, any Error>)
        case tapped(id: Int, Location)
        case cleared
        case `default`
        @ComposableArchitecture._RecordCodec1

        public enum View: BindableAction {
          case binding(BindingAction<State>)
        }
      }

      extension Action: Swift.Codable {
        public init(from decoder: any Swift.Decoder) throws {
          let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
          let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)
          switch caseKey.stringValue {
          case "response":
            let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
            self = .response(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
          case "tapped":
            let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
            self = .tapped(id: try ComposableArchitecture._RecordCoding.decode(values, "id"), try ComposableArchitecture._RecordCoding.decode(values, "_1"))
          case "cleared":
            self = .cleared
          case "default":
            self = .`default`
          default:
            throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)
          }
        }
        public func encode(to encoder: any Swift.Encoder) throws {
          var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
          switch self {
          case let .response(v0):
            var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("response"))
            try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
          case let .tapped(v0, v1):
            var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("tapped"))
            try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "id")
            try ComposableArchitecture._RecordCoding.encode(v1, to: &values, "_1")
          case .cleared:
            _ = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("cleared"))
          case .`default`:
            _ = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("default"))
          default:
            throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)
          }
        }
      }

      extension Action: ComposableArchitecture._JSONEncodable {
        public func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
          switch self {
          case let .response(v0):
            var object = json.enumCase("response")
            try json.member("_0", v0, in: &object)
            json.endCase(object)
          case let .tapped(v0, v1):
            var object = json.enumCase("tapped")
            try json.member("_1", v1, in: &object)
            try json.member("id", v0, in: &object)
            json.endCase(object)
          case .cleared:
            json.endCase(json.enumCase("cleared"))
          case .`default`:
            json.endCase(json.enumCase("default"))
          default:
            throw ComposableArchitecture._JSONUnsupported()
          }
        }
      }

      extension Action: ComposableArchitecture._JSONDecodable {
        public init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
          let (key, value) = try reader.soleMember(ofObject: index)
          try reader.requireObject(at: value)
          if reader.key(key, is: "response") {
            self = .response(try reader.member("_0", of: value));
            return
          }
          if reader.key(key, is: "tapped") {
            self = .tapped(id: try reader.member("id", of: value), try reader.member("_1", of: value));
            return
          }
          if reader.key(key, is: "cleared") {
            self = .cleared;
            return
          }
          if reader.key(key, is: "default") {
            self = .`default`;
            return
          }
          throw ComposableArchitecture._JSONUnsupported()
        }
      }
      """
    }
  }

  @Test func aRawValueEnum() {
    assertMacro {
      """
      @_RecordCodec
      enum Theme: String, CaseIterable {
        case bubblegum, navy
      }
      """
    } expansion: {
      #"""
      enum Theme: String, CaseIterable {
        case bubblegum, navy
      }

      extension Theme: Swift.Codable {
        init(from decoder: any Swift.Decoder) throws {
          let rawValue: RawValue = try decoder.singleValueContainer().decode(RawValue.self)
          guard let value = Self(rawValue: rawValue) else {
            throw Swift.DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "No case of \(Self.self) has the raw value \(rawValue)"))
          }
          self = value
        }
        func encode(to encoder: any Swift.Encoder) throws {
          var container = encoder.singleValueContainer()
          try container.encode(self.rawValue)
        }
      }
      """#
    }
  }

  @Test func whatItLeavesAlone() {
    assertMacro {
      """
      @_RecordCodec
      struct Box<Value> {
        var value: Value
      }
      @_RecordCodec
      struct Coded: Codable {
        var value: Int
      }
      """
    } expansion: {
      """
      struct Box<Value> {
        var value: Value
      }
      struct Coded: Codable {
        var value: Int
      }
      """
    }
  }
}

/// A state with `@BindingState` fields, written as TCA's were before `@ObservableState`: its
/// fields listed for the bindings a recording names (only that conformance missing here).
@Suite(
  .macros(
    ["_RecordCodec": MacroSpec(type: RecordCodecMacro.self, conformances: ["_BindableFields"])]
  )
)
struct RecordCodecBindingStateMacroTests {
  @Test func aStateWithBindingStateListsItsFields() {
    assertMacro {
      """
      @_RecordCodec
      struct State: Equatable, Codable {
        @BindingState var name = ""
        var edits = 0
        let id: Int
      }
      """
    } expansion: {
      #"""
      struct State: Equatable, Codable {
        @BindingState var name = ""
        var edits = 0
        let id: Int
      }

      extension State: ComposableArchitecture._BindableFields {
        static var _$bindableFields: [ComposableArchitecture._BindableField<Self>] {
          [
            ComposableArchitecture._BindableField("name", \.$name.wrappedValue),
            ComposableArchitecture._BindableField("edits", \.edits),
          ]
        }
      }
      """#
    }
  }

  @Test func aStateWithoutBindingStateGetsNothing() {
    assertMacro {
      """
      @_RecordCodec
      struct State: Equatable, Codable {
        var edits = 0
      }
      """
    } expansion: {
      """
      struct State: Equatable, Codable {
        var edits = 0
      }
      """
    }
  }
}
