import ComposableArchitecture
import Foundation
import TestSupport
import Testing

@MainActor
@Suite struct EffectTests {
  @Test func aRunEffectsTaskCarriesTheNameItWasGiven() async {
    let names = LockIsolated<[String?]>([])
    let store = Store(initialState: 0) {
      Reduce<Int, Bool> { _, named in
        named
          ? .run(name: "sync") { _ in names.withValue { $0.append(Task.name) } }
          : .run { _ in names.withValue { $0.append(Task.name) } }
      }
    }
    await store.send(true).finish()
    await store.send(false).finish()
    #expect(names.value == ["sync", nil])
  }

  /// A store whose state is the log of actions it received, and whose reducer returns, for the
  /// action "start", the effect under test.
  private func logStore(
    _ effect: @escaping () -> Effect<String>
  ) -> Store<[String], String> {
    Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        return action == "start" ? effect() : .none
      }
    }
  }

  @Test func mergeRunsEffectsAtTheSameTime() async {
    let (first, second) = (Gate(), Gate())
    let store = self.logStore {
      .merge(
        .run { send in
          await first.wait()
          await send("first")
        },
        .run { send in
          await second.wait()
          await send("second")
        }
      )
    }
    let task = store.send("start")
    second.open()
    #expect(await eventually { store.state == ["start", "second"] })
    first.open()
    #expect(await eventually { store.state == ["start", "second", "first"] })
    #expect(await finishes(task))
  }

  @Test func concatenateRunsEffectsOneAfterTheOther() async {
    let (first, second) = (Gate(), Gate())
    let store = self.logStore {
      .concatenate(
        .send("before"),
        .run { send in
          await first.wait()
          await send("first")
        },
        .send("between"),
        .run { send in
          await second.wait()
          await send("second")
        }
      )
    }
    let task = store.send("start")
    #expect(store.state == ["start", "before"])
    second.open()
    // NB: A moment in which nothing may happen: on a slow machine it is no less true.
    try? await Task.sleep(for: .milliseconds(50))
    #expect(store.state == ["start", "before"])
    first.open()
    #expect(await eventually { store.state == ["start", "before", "first", "between", "second"] })
    #expect(await finishes(task))
  }

  @Test func mapTransformsEveryAction() async {
    let store = self.logStore {
      Effect<Int>.merge(.send(1), .run { send in await send(2) })
        .map { "mapped \($0)" }
    }
    await store.send("start").finish()
    #expect(store.state == ["start", "mapped 1", "mapped 2"])
  }

  @Test func cancelByIDStopsTheEffectAndItsSends() async {
    let clock = TestClock()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "start":
          return .run { send in
            await send("started")
            try await clock.sleep(for: .seconds(1))
            await send("finished")
          }
          .cancellable(id: "timer")
        case "stop":
          return .cancel(id: "timer")
        default:
          return .none
        }
      }
    }
    let task = store.send("start")
    #expect(await clock.waitForSuspension())
    store.send("stop")
    #expect(await finishes(task))
    // NB: A generous bound: the default half second can pass on a loaded machine before the clock
    // even looks at its sleeps.
    await clock.run(timeout: hangBound)
    #expect(store.state == ["start", "started", "stop"])
  }

  @Test func cancelInFlightRestartsTheEffect() async {
    let clock = TestClock()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action.hasPrefix("query") else { return .none }
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send("result of \(action)")
        }
        .cancellable(id: "search", cancelInFlight: true)
      }
    }
    let first = store.send("query 1")
    #expect(await clock.waitForSuspension())
    let second = store.send("query 2")
    #expect(await finishes(first))
    #expect(await clock.advance(by: .seconds(1)) { store.state.count == 3 })
    #expect(await finishes(second))
    #expect(store.state == ["query 1", "query 2", "result of query 2"])
  }

  @Test func sendDoesNothingAfterCancellation() async {
    let store = self.logStore {
      .run { send in
        withUnsafeCurrentTask { $0?.cancel() }
        await send("after cancellation")
      }
    }
    await store.send("start").finish()
    #expect(store.state == ["start"])
  }

  @Test func runCatchHandlerReceivesErrors() async {
    struct Failure: Error {}
    let store = self.logStore {
      .run { _ in
        throw Failure()
      } catch: { _, send in
        await send("caught")
      }
    }
    await store.send("start").finish()
    #expect(store.state == ["start", "caught"])
  }

  @Test func runReportsUnhandledErrors() async {
    struct Failure: Error {}
    let line: UInt = #line + 3
    let issues = await recordedIssues {
      let store = self.logStore {
        .run { _ in throw Failure() }
      }
      await store.send("start").finish()
    }
    #expect(
      issues == [
        """
        An "Effect.run" returned from "ComposableArchitectureTests/EffectTests.swift:\(line)" \
        threw an unhandled error.

            EffectTests.Failure()

        All non-cancellation errors must be explicitly handled via the "catch" parameter on \
        "Effect.run", or via a "do" block.
        """
      ]
    )
  }

  @Test func cancellationErrorsAreNotReported() async {
    let store = self.logStore {
      .run { _ in throw CancellationError() }
    }
    await store.send("start").finish()
    #expect(store.state == ["start"])
  }

  @Test func effectsUseTheDependenciesWhereTheyWereCreated() async {
    struct Feature: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: UUID?) -> Effect<UUID?> {
        if let action {
          state.append(action)
          return .none
        }
        return .run { send in await send(self.uuid()) }
      }
    }
    let store = Store(initialState: [UUID]()) {
      Feature()
    } withDependencies: {
      $0.uuid = .constant(UUID(7))
    }
    await store.send(nil).finish()
    #expect(store.state == [UUID(7)])
  }
}
