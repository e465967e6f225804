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
  @Test func aStructKeepsItsStoredPropertiesAndConforms() {
    assertMacro {
      """
      @ObservableState
      struct State: Codable, Equatable {
        var count = 0
        @ObservationStateIgnored
        var scratch = ""
      }
      """
    } expansion: {
      """
      struct State: Codable, Equatable {
        var count = 0
        var scratch = ""
      }

      extension State: ComposableArchitecture.ObservableState {
      }
      """
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
