@_spi(Internals) @testable import ComposableArchitecture
import TestSupport
import Testing

/// Two `run` effects merged or concatenated are one `run`, as TCA's are (its tests match on
/// `effect.operation`), which a store still starts part by part and a recording names the same.
@MainActor
@Suite struct EffectFusionTests {
  private func run(_ value: Int, line: UInt = #line) -> Effect<Int> {
    .run(operation: { send in await send(value) }, line: line)
  }

  /// The values an effect's single `run` operation sends, run by itself.
  private func sentByOperation(_ effect: Effect<Int>) async -> [Int]? {
    guard case let .run(_, _, operation) = effect.operation else { return nil }
    let sent = LockIsolated<[Int]>([])
    await operation(Send { value in sent.withValue { $0.append(value) } })
    return sent.value
  }

  @Test func twoRunsMergedAreOneRunThatRunsBoth() async {
    let merged = self.run(1).merge(with: self.run(2))
    #expect(await self.sentByOperation(merged)?.sorted() == [1, 2])
    let three = Effect.merge(self.run(1), self.run(2), self.run(3))
    #expect(await self.sentByOperation(three)?.sorted() == [1, 2, 3])
  }

  @Test func twoRunsConcatenatedAreOneRunThatRunsThemInTurn() async {
    let concatenated = Effect.concatenate(self.run(1), self.run(2), self.run(3))
    #expect(await self.sentByOperation(concatenated) == [1, 2, 3])
  }

  @Test func aRunBesideAnythingButARunStaysAMerge() async {
    #expect(await self.sentByOperation(self.run(1).merge(with: .send(2))) == nil)
    #expect(
      await self.sentByOperation(self.run(1).cancellable(id: "a").merge(with: self.run(2)))
        == nil)
  }

  @Test func aFusedRunHasTheShapeOfWhatItWasMadeFrom() {
    let (a, b, c) = (self.run(1), self.run(2), self.run(3))
    let fused = Effect.merge(a, b)
    #expect(fused.shape == .merge([a.shape, b.shape]))
    // Merged again with a send, the parts are taken one by one, as before runs were fused.
    #expect(fused.merge(with: .send(4)).shape == .merge([a.shape, b.shape, .send]))
    #expect(Effect.concatenate(a, b, c).shape == .concatenate([a.shape, b.shape, c.shape]))
    // A concatenation inside a merge stays one.
    #expect(
      Effect.concatenate(a, b).merge(with: c).shape
        == .merge([.concatenate([a.shape, b.shape]), c.shape]))
    #expect(fused.map { $0 + 1 }.shape == fused.shape)
  }

  @Test func aStoreStartsAFusedRunsPartsEachAsATaskOfItsOwn() async {
    let (first, second) = (Gate(), Gate())
    let store = Store(initialState: [Int]()) {
      // NB: Parenthesized: with `@testable`, TCA's `init(internal:)` takes a trailing closure too.
      Reduce<[Int], Int>({ state, value in
        state.append(value)
        guard value == 0 else { return .none }
        return .merge(
          .run { send in
            await first.wait()
            await send(1)
          },
          .run { send in
            await second.wait()
            await send(2)
          }
        )
        .cancellable(id: "both")
      })
    }
    let task = store.send(0)
    #expect(store.effectCancellables.count == 2)
    second.open()
    #expect(await eventually { store.state == [0, 2] })
    #expect(await eventually { store.effectCancellables.count == 1 })
    first.open()
    await task.finish()
    #expect(store.state == [0, 2, 1])
  }
}
