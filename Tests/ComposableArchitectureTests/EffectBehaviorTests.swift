import ComposableArchitecture
import Testing

/// Effects are judged by what they do: a harmless edit (code moved, children merged in another
/// order) keeps the behaviour, and every change of what runs and what is cancelled does not.
@Suite struct EffectBehaviorTests {
  private enum CancelID { case sync, search }

  /// A sync made cancellable, as a feature writes it.
  private func sync(cancelInFlight: Bool = true) -> Effect<Int> {
    .run { send in await send(1) }.cancellable(id: CancelID.sync, cancelInFlight: cancelInFlight)
  }

  /// The same sync, its `.run` on another line, as after comment lines were added above it.
  private func syncMoved() -> Effect<Int> {
    // A comment above the work.
    // And another: the line of the `.run` below is not the one above.
    .run { send in await send(1) }.cancellable(id: CancelID.sync, cancelInFlight: true)
  }

  private func search() -> Effect<Int> {
    .run { send in await send(2) }
  }

  @Test func workWrittenElsewhereBehavesAlike() {
    #expect(self.sync().shape != self.syncMoved().shape)
    #expect(self.sync().shape.behavesLike(self.syncMoved().shape))
    #expect(
      self.sync().shape.behavior.description == "cancellable(CancelID.sync, cancelInFlight, run)")
  }

  @Test func mergedEffectsInAnotherOrderBehaveAlike() {
    let recorded = Effect.merge(self.sync(), self.search(), .cancel(id: CancelID.search)).shape
    let reordered = Effect.merge(.cancel(id: CancelID.search), self.search(), self.syncMoved())
      .shape
    #expect(recorded != reordered)
    #expect(recorded.behavesLike(reordered))
    // As reducers combined pairwise nest them: (a + b) + c against a + (c + b).
    let nested = EffectShape.merge([
      .merge([self.sync().shape, self.search().shape]), .cancel(id: EffectID("CancelID.search")),
    ])
    let regrouped = EffectShape.merge([
      self.syncMoved().shape,
      .merge([.cancel(id: EffectID("CancelID.search")), self.search().shape]),
    ])
    #expect(nested.behavesLike(regrouped))
    #expect(nested.behavesLike(recorded))
  }

  @Test func nothingInsideAMergeOrAConcatenationIsNothing() {
    let run = self.search().shape
    #expect(EffectShape.merge([.none, run]).behavesLike(run))
    #expect(EffectShape.concatenate([run, .none]).behavesLike(run))
    #expect(EffectShape.merge([.none, .none]).behavesLike(.none))
    #expect(
      EffectShape.concatenate([.concatenate([run, .send]), run])
        .behavesLike(.concatenate([run, .concatenate([.send, run])])))
  }

  @Test func everyChangeOfWhatRunsOrIsCancelledDiffers() {
    let recorded = Effect.merge(self.sync(), .cancel(id: CancelID.search)).shape
    let changes: [(String, EffectShape)] = [
      ("the effect dropped", Effect<Int>.cancel(id: CancelID.search).shape),
      (
        "an effect added",
        Effect.merge(self.sync(), .cancel(id: CancelID.search), self.search()).shape
      ),
      (".cancellable dropped", Effect.merge(self.search(), .cancel(id: CancelID.search)).shape),
      (
        "its id changed",
        Effect.merge(
          self.search().cancellable(id: CancelID.search, cancelInFlight: true),
          .cancel(id: CancelID.search)
        ).shape
      ),
      (
        "cancelInFlight changed",
        Effect.merge(
          self.sync(cancelInFlight: false), .cancel(id: CancelID.search)
        ).shape
      ),
      ("the cancel removed", self.sync().shape),
      ("the cancel's id changed", Effect.merge(self.sync(), .cancel(id: CancelID.sync)).shape),
      (
        "the same work twice",
        Effect.merge(self.sync(), self.sync(), .cancel(id: CancelID.search)).shape
      ),
      ("sent at once instead", Effect.merge(Effect.send(1), .cancel(id: CancelID.search)).shape),
      (
        "run one after the other",
        Effect.concatenate(self.sync(), .cancel(id: CancelID.search)).shape
      ),
    ]
    for (change, replayed) in changes {
      #expect(!recorded.behavesLike(replayed), "\(change): \(replayed)")
    }
  }

  @Test func aConcatenationKeepsItsOrder() {
    let first = Effect<Int>.concatenate(.cancel(id: CancelID.sync), self.search()).shape
    let second = Effect<Int>.concatenate(self.search(), .cancel(id: CancelID.sync)).shape
    #expect(!first.behavesLike(second))
  }
}
