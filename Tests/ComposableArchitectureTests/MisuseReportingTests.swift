import ComposableArchitecture
import TestSupport
import Testing

@CasePathable
private enum Screen: Equatable {
  case list(Int)
  case detail(String)
}

@CasePathable
private enum ScreenAction: Equatable {
  case list(Int)
}

/// Messages for misuse that the other suites do not reach: each asserted whole.
@MainActor
@Suite struct MisuseReportingTests {
  @Test func scopeOnAnotherCaseIsReported() async {
    let issues = await recordedIssues {
      let store = Store(initialState: Screen.detail("a")) {
        Scope(
          state: \Screen.Cases.list, action: \ScreenAction.Cases.list,
          child: {
            Reduce<Int, Int> { state, action in
              state += action; return .none
            }
          },
          fileID: "Tests/Screen.swift", line: 7
        )
      }
      store.send(.list(1))
      #expect(store.state == .detail("a"))
    }
    #expect(
      issues == [
        """
        A "Scope" at "Tests/Screen.swift:7" received a child action when child state was set to \
        a different case.

          Action:
            ScreenAction.list
          State:
            Screen.detail

        This is generally considered an application logic error, and can happen for a few \
        reasons:

        A parent reducer set "Screen" to a different case before the scoped reducer ran. Child \
        reducers must run before any parent reducer sets child state to a different case. This \
        ensures that child reducers can handle their actions while their state is still \
        available. Consider using "Reducer.ifCaseLet" to embed this child reducer in the parent \
        reducer that change its state to ensure the child reducer runs first.

        An in-flight effect emitted this action when child state was unavailable. While it may \
        be perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state changes to another case, especially if it is a long-living effect.

        This action was sent to the store while state was another case. Make sure that actions \
        for this reducer can only be sent from a store when state is set to the appropriate \
        case. In SwiftUI applications, use "SwitchStore".
        """
      ]
    )
  }

  @Test func sendingFromACompletedEffectIsReported() async {
    let escaped = LockIsolated<Send<Int>?>(nil)
    let issues = await recordedIssues {
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state += action
          guard action == 0 else { return .none }
          return .run { send in escaped.setValue(send) }
        }
      }
      #expect(await finishes(store.send(0)))
      escaped.value?(5)
      #expect(store.state == 5)
    }
    #expect(
      issues == [
        """
        An action was sent from a completed effect.

          Action:
            Int

          Effect returned from:
            Int

        Avoid sending actions using the 'send' argument from 'Effect.run' after the effect has \
        completed. This can happen if you escape the 'send' argument in an unstructured context.

        To fix this, make sure that your 'run' closure does not return until you're done \
        calling 'send'.
        """
      ]
    )
  }

  @Test func testStoreTaskFinishTimesOut() async {
    let issues = await recordedIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { _, _ in
          .run { _ in try await Task.never() }
        }
      }
      let task = await store.send(1)
      // NB: The timeout is the subject: the effect never ends.
      await task.finish(timeout: .milliseconds(50))
      await task.cancel()
    }
    #expect(
      issues == [
        """
        Expected task to finish, but it is still in-flight after 0.05 seconds. …

        To fix this, make sure every effect this action started completes: advance the test clock \
        it waits on, or cancel long-living effects, or wait longer with "finish(timeout:)".
        """
      ]
    )
  }
}
