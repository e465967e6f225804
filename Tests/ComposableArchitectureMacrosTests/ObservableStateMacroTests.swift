import ComposableArchitectureMacros
import MacroTesting
import Testing

/// `@ObservableState` and `@ObservationStateIgnored`, with the diagnostic for a class.
@Suite(
  .macros([
    "ObservableState": ObservableStateMacro.self,
    "ObservationStateIgnored": ObservationStateIgnoredMacro.self,
  ])
)
struct ObservableStateMacroTests {
  @Test func aStructKeepsItsStoredPropertiesAndListsThoseABindingCanWrite() {
    assertMacro {
      """
      @ObservableState
      public struct State: Codable, Equatable {
        public var count = 0
        @ObservationStateIgnored
        var scratch = ""
        var first = 1, second: Int = 2
        var observed = 0 {
          didSet { print(observed) }
        }
        @Presents var destination: Destination.State?
        let id: UUID
        static var shared = 0
        lazy var cache = 0
        private var secret = 0
        var computed: Int { count * 2 }
      }
      """
    } expansion: {
      #"""
      public struct State: Codable, Equatable {
        public var count = 0
        var scratch = ""
        var first = 1, second: Int = 2
        var observed = 0 {
          didSet { print(observed) }
        }
        @Presents var destination: Destination.State?
        let id: UUID
        static var shared = 0
        lazy var cache = 0
        private var secret = 0
        var computed: Int { count * 2 }
      }

      extension State: ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields {
        public static var _$bindableFields: [ComposableArchitecture._BindableField<Self>] {
          [
            ComposableArchitecture._BindableField("count", \.count),
            ComposableArchitecture._BindableField("scratch", \.scratch),
            ComposableArchitecture._BindableField("first", \.first),
            ComposableArchitecture._BindableField("second", \.second),
            ComposableArchitecture._BindableField("observed", \.observed),
            ComposableArchitecture._BindableField("destination", \.destination),
          ]
        }
      }
      """#
    }
  }

  @Test func aStructWorksOutItsChangesMemberByMemberInTheOrderCodableWritesThem() {
    assertMacro {
      """
      @ObservableState
      struct State: Codable, Equatable {
        var zebra = 0
        @Shared(.inMemory("count")) var count = 0
        var note: String?
        private var secret = 0
        let id: UUID
        static var shared = 0
        var computed: Int { zebra * 2 }
      }
      """
    } expansion: {
      #"""
      struct State: Codable, Equatable {
        var zebra = 0
        @Shared(.inMemory("count")) var count = 0
        var note: String?
        private var secret = 0
        let id: UUID
        static var shared = 0
        var computed: Int { zebra * 2 }
      }

      extension State: ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields {
        static var _$bindableFields: [ComposableArchitecture._BindableField<Self>] {
          [
            ComposableArchitecture._BindableField("zebra", \.zebra),
            ComposableArchitecture._BindableField("count", \.count),
            ComposableArchitecture._BindableField("note", \.note),
          ]
        }
      }

      extension State: ComposableArchitecture._StepChanging {
        func _appendStepChanges<Sink: ComposableArchitecture.StepChangeSink>(
          from old: Self, at path: [String], into sink: inout Sink
        ) {
          var object = ComposableArchitecture._StepChanges.Object(path: path, sink: sink)
          for _ in 0 ..< 2 {
            ComposableArchitecture._StepChanges.member("count", old._count, self._count, in: &object)
            ComposableArchitecture._StepChanges.member("id", old.id, self.id, in: &object)
            ComposableArchitecture._StepChanges.member("note", old.note, self.note, in: &object)
            ComposableArchitecture._StepChanges.member("secret", old.secret, self.secret, in: &object)
            ComposableArchitecture._StepChanges.member("zebra", old.zebra, self.zebra, in: &object)
            object.nextPass()
          }
          object.finish(into: &sink)
        }
        func _isIdentical(to other: Self) -> Bool {
          ComposableArchitecture._StepChanges.isIdentical(self.zebra, other.zebra)
            && ComposableArchitecture._StepChanges.isIdentical(self._count, other._count)
            && ComposableArchitecture._StepChanges.isIdentical(self.note, other.note)
            && ComposableArchitecture._StepChanges.isIdentical(self.secret, other.secret)
            && ComposableArchitecture._StepChanges.isIdentical(self.id, other.id)
        }
      }

      extension State: ComposableArchitecture._JSONEncodable {
        func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
          var object = json.object()
          try json.member("count", self._count, in: &object)
          try json.member("id", self.id, in: &object)
          try json.member("note", self.note, in: &object)
          try json.member("secret", self.secret, in: &object)
          try json.member("zebra", self.zebra, in: &object)
          json.end(object)
        }
      }

      extension State: ComposableArchitecture._JSONDecodable {
        init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
          try reader.requireObject(at: index)
          self.zebra = try reader.member("zebra", of: index, at: \Self.zebra)
          self._count = try reader.member("count", of: index, at: \Self._count)
          self.note = try reader.member("note", of: index, at: \Self.note)
          self.secret = try reader.member("secret", of: index, at: \Self.secret)
          self.id = try reader.member("id", of: index, at: \Self.id)
        }
      }
      """#
    }
  }

  @Test func aStructThatWritesItselfGetsNoChangeCode() {
    assertMacro {
      """
      @ObservableState
      struct State: Codable {
        var count = 0
        enum CodingKeys: String, CodingKey { case count = "n" }
      }
      """
    } expansion: {
      #"""
      struct State: Codable {
        var count = 0
        enum CodingKeys: String, CodingKey { case count = "n" 
      }
      }

      extension State: ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields {
        static var _$bindableFields: [ComposableArchitecture._BindableField<Self>] {
          [
            ComposableArchitecture._BindableField("count", \.count),
          ]
        }
      }
      """#
    }
  }

  @Test func anEnumConforms() {
    assertMacro {
      """
      @ObservableState
      public enum State: Equatable {
        case loading
        case loaded(Int)
      }
      """
    } expansion: {
      """
      public enum State: Equatable {
        case loading
        case loaded(Int)
      }

      extension State: ComposableArchitecture.ObservableState {
      }
      """
    }
  }

  @Test func aDeclaredConformanceIsNotWrittenAgain() {
    assertMacro {
      """
      @ObservableState
      struct State: ObservableState {
      }
      """
    } expansion: {
      """
      struct State: ObservableState {
      }
      """
    }
  }

  @Test func aClassIsAnErrorWithAFixIt() {
    assertMacro {
      """
      @ObservableState
      final class Model {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @ObservableState
      ┬───────────────
      ╰─ 🛑 '@ObservableState' can only be applied to a struct or an enum: a feature's state is a value
         ✏️ Use '@Observable' from Observation for a class
      final class Model {
        var count = 0
      }
      """
    } fixes: {
      """
      @Observable
      final class Model {
        var count = 0
      }
      """
    } expansion: {
      """
      @Observable
      final class Model {
        var count = 0
      }
      """
    }
  }
}
