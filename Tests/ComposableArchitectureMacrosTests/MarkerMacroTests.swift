import ComposableArchitectureMacros
import MacroTesting
import Testing

/// The marks `@Reducer` and `@ObservableState` read: they expand to nothing where they belong,
/// and are errors anywhere else.
@Suite(
  .macros([
    "ReducerCaseEphemeral": ReducerCaseEphemeralMacro.self,
    "ReducerCaseIgnored": ReducerCaseIgnoredMacro.self,
    "ObservationStateIgnored": ObservationStateIgnoredMacro.self,
  ])
)
struct MarkerMacroTests {
  @Test func caseMarksOnCasesExpandToNothing() {
    assertMacro {
      """
      enum Destination {
        @ReducerCaseEphemeral
        case alert(AlertState<Alert>)
        @ReducerCaseIgnored
        case meta(String, Int)
      }
      """
    } expansion: {
      """
      enum Destination {
        case alert(AlertState<Alert>)
        case meta(String, Int)
      }
      """
    }
  }

  @Test func aCaseMarkElsewhereIsAnError() {
    assertMacro {
      """
      @ReducerCaseIgnored
      struct Meta {
      }
      @ReducerCaseEphemeral
      var alert: AlertState<Alert>?
      """
    } diagnostics: {
      """
      @ReducerCaseIgnored
      ┬──────────────────
      ╰─ 🛑 '@ReducerCaseIgnored' can only be applied to a case of a '@Reducer' enum
      struct Meta {
      }
      @ReducerCaseEphemeral
      ┬────────────────────
      ╰─ 🛑 '@ReducerCaseEphemeral' can only be applied to a case of a '@Reducer' enum
      var alert: AlertState<Alert>?
      """
    }
  }

  @Test func observationStateIgnoredOnAPropertyExpandsToNothing() {
    assertMacro {
      """
      struct State {
        @ObservationStateIgnored
        var cache: [Int] = []
      }
      """
    } expansion: {
      """
      struct State {
        var cache: [Int] = []
      }
      """
    }
  }

  @Test func observationStateIgnoredElsewhereIsAnError() {
    assertMacro {
      """
      @ObservationStateIgnored
      func reset() {
      }
      """
    } diagnostics: {
      """
      @ObservationStateIgnored
      ┬───────────────────────
      ╰─ 🛑 '@ObservationStateIgnored' can only be applied to a stored property of '@ObservableState' state
      func reset() {
      }
      """
    }
  }
}
