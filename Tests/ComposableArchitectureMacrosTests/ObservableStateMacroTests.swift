import ComposableArchitectureMacros
import MacroTesting
import Testing

/// `@ObservableState`, `@ObservationStateTracked` and `@ObservationStateIgnored`, with the
/// diagnostic for a class.
@Suite(
  .macros([
    "ObservableState": ObservableStateMacro.self,
    "ObservationStateIgnored": ObservationStateIgnoredMacro.self,
    "ComposableArchitecture.ObservationStateTracked": ObservationStateTrackedMacro.self,
  ])
)
struct ObservableStateMacroTests {
  @Test func aStructTracksItsStoredVarsAndListsThoseABindingCanWrite() {
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
        @ComposableArchitecture.ObservationStateTracked
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
        @ComposableArchitecture.ObservationStateTracked
        private var secret = 0
        var computed: Int { count * 2 }

        @ComposableArchitecture.ObservationStateIgnored
        var _$observationRegistrar = ComposableArchitecture.ObservationStateRegistrar()

        public var _$id: ComposableArchitecture.ObservableStateID {
          _$observationRegistrar.id
        }

        public mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }

        enum CodingKeys: String, CodingKey {
          case _count = "count"
          case scratch
          case first
          case second
          case observed
          case destination
          case id
          case _secret = "secret"
        }
      }

      extension State: ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields, ComposableArchitecture._ObservedProperties {
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
        public static var _$observedProperties: [ComposableArchitecture._ObservedProperty] {
          [
            ComposableArchitecture._ObservedProperty("count", \Self.count),
            ComposableArchitecture._ObservedProperty("secret", \Self.secret),
          ]
        }
        public static func _$storage(of keyPath: AnyKeyPath) -> AnyKeyPath? {
          if keyPath == \Self.count {
            return \Self._count
          }
          if keyPath == \Self.secret {
            return \Self._secret
          }
          return nil
        }
      }

      extension State: Swift.CustomReflectable {
        public var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: ["count": self._count as Any, "scratch": self.scratch as Any, "first": self.first as Any, "second": self.second as Any, "observed": self.observed as Any, "_destination": self._destination as Any, "id": self.id as Any, "secret": self._secret as Any],
            displayStyle: .struct
          )
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
        @ComposableArchitecture.ObservationStateTracked
        var zebra = 0
        @Shared(.inMemory("count")) var count = 0
        @ComposableArchitecture.ObservationStateTracked
        var note: String?
        @ComposableArchitecture.ObservationStateTracked
        private var secret = 0
        let id: UUID
        static var shared = 0
        var computed: Int { zebra * 2 }

        @ComposableArchitecture.ObservationStateIgnored
        var _$observationRegistrar = ComposableArchitecture.ObservationStateRegistrar()

        var _$id: ComposableArchitecture.ObservableStateID {
          _$observationRegistrar.id
        }

        mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }

        enum CodingKeys: String, CodingKey {
          case _zebra = "zebra"
          case count
          case _note = "note"
          case _secret = "secret"
          case id
        }
      }

      extension State: ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields, ComposableArchitecture._ObservedProperties {
        static var _$bindableFields: [ComposableArchitecture._BindableField<Self>] {
          [
            ComposableArchitecture._BindableField("zebra", \.zebra),
            ComposableArchitecture._BindableField("count", \.count),
            ComposableArchitecture._BindableField("note", \.note),
          ]
        }
        static var _$observedProperties: [ComposableArchitecture._ObservedProperty] {
          [
            ComposableArchitecture._ObservedProperty("zebra", \Self.zebra),
            ComposableArchitecture._ObservedProperty("note", \Self.note),
            ComposableArchitecture._ObservedProperty("secret", \Self.secret),
          ]
        }
        static func _$storage(of keyPath: AnyKeyPath) -> AnyKeyPath? {
          if keyPath == \Self.zebra {
            return \Self._zebra
          }
          if keyPath == \Self.note {
            return \Self._note
          }
          if keyPath == \Self.secret {
            return \Self._secret
          }
          return nil
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
            ComposableArchitecture._StepChanges.member("note", old._note, self._note, in: &object)
            ComposableArchitecture._StepChanges.member("secret", old._secret, self._secret, in: &object)
            ComposableArchitecture._StepChanges.member("zebra", old._zebra, self._zebra, in: &object)
            object.nextPass()
          }
          object.finish(into: &sink)
        }
        func _isIdentical(to other: Self) -> Bool {
          ComposableArchitecture._StepChanges.isIdentical(self._zebra, other._zebra)
            && ComposableArchitecture._StepChanges.isIdentical(self._count, other._count)
            && ComposableArchitecture._StepChanges.isIdentical(self._note, other._note)
            && ComposableArchitecture._StepChanges.isIdentical(self._secret, other._secret)
            && ComposableArchitecture._StepChanges.isIdentical(self.id, other.id)
        }
      }

      extension State: Swift.CustomReflectable {
        var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: ["zebra": self._zebra as Any, "_count": self._count as Any, "note": self._note as Any, "secret": self._secret as Any, "id": self.id as Any],
            displayStyle: .struct
          )
        }
      }

      extension State: ComposableArchitecture._JSONEncodable {
        func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
          var object = json.object()
          try json.member("count", self._count, in: &object)
          try json.member("id", self.id, in: &object)
          try json.member("note", self._note, in: &object)
          try json.member("secret", self._secret, in: &object)
          try json.member("zebra", self._zebra, in: &object)
          json.end(object)
        }
      }

      extension State: ComposableArchitecture._JSONDecodable {
        init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
          try reader.requireObject(at: index)
          self._zebra = try reader.member("zebra", of: index, at: \Self._zebra)
          self._count = try reader.member("count", of: index, at: \Self._count)
          self._note = try reader.member("note", of: index, at: \Self._note)
          self._secret = try reader.member("secret", of: index, at: \Self._secret)
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

        @ComposableArchitecture.ObservationStateIgnored
        var _$observationRegistrar = ComposableArchitecture.ObservationStateRegistrar()

        var _$id: ComposableArchitecture.ObservableStateID {
          _$observationRegistrar.id
        }

        mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }

      extension State: ComposableArchitecture.ObservableState, ComposableArchitecture._BindableFields, ComposableArchitecture._ObservedProperties {
        static var _$bindableFields: [ComposableArchitecture._BindableField<Self>] {
          [
            ComposableArchitecture._BindableField("count", \.count),
          ]
        }
        static var _$observedProperties: [ComposableArchitecture._ObservedProperty] {
          []
        }
      }

      extension State: Swift.CustomReflectable {
        var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: ["count": self.count as Any],
            displayStyle: .struct
          )
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

/// `@ObservationStateTracked`: a stored property becomes accessors over `_name` storage that tell
/// the state's registrar of each read and write.
@Suite(.macros(["ObservationStateTracked": ObservationStateTrackedMacro.self]))
struct ObservationStateTrackedMacroTests {
  @Test func aStoredPropertyBecomesAccessorsOverItsStorage() {
    assertMacro {
      """
      struct State {
        @ObservationStateTracked
        var count = 0
        @ObservationStateTracked
        private var rows: [Row]
      }
      """
    } expansion: {
      #"""
      struct State {
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.count)
            return _count
          }
          set {
            _$observationRegistrar.mutate(self, keyPath: \.count, &_count, newValue, ComposableArchitecture._$modifyIdentity, ComposableArchitecture._$shouldNotifyObservers)
          }
          _modify {
            let identity = _$observationRegistrar.willModify(self, keyPath: \.count, &_count, ComposableArchitecture._$modifyIdentity)
            defer {
              _$observationRegistrar.didModify(self, keyPath: \.count, &_count, identity, ComposableArchitecture._$modifyIdentity)
            }
            yield &_count
          }
        }

        var _count = 0
        private var rows: [Row] {
          @storageRestrictions(initializes: _rows)
          init(initialValue) {
            _rows = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.rows)
            return _rows
          }
          set {
            _$observationRegistrar.mutate(self, keyPath: \.rows, &_rows, newValue, ComposableArchitecture._$modifyIdentity, ComposableArchitecture._$shouldNotifyObservers)
          }
          _modify {
            let identity = _$observationRegistrar.willModify(self, keyPath: \.rows, &_rows, ComposableArchitecture._$modifyIdentity)
            defer {
              _$observationRegistrar.didModify(self, keyPath: \.rows, &_rows, identity, ComposableArchitecture._$modifyIdentity)
            }
            yield &_rows
          }
        }

        private var _rows: [Row]
      }
      """#
    }
  }

  @Test func aPropertyThatCannotBeTrackedIsLeftAlone() {
    assertMacro {
      """
      struct State {
        @ObservationStateTracked
        let id: Int
        @ObservationStateTracked
        var computed: Int { 1 }
        @ObservationStateTracked
        lazy var cache = 0
      }
      """
    } expansion: {
      """
      struct State {
        let id: Int
        var computed: Int { 1 }
        lazy var cache = 0
      }
      """
    }
  }
}
