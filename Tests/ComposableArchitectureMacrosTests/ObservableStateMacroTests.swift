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
