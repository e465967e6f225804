// Names TCA 1.x code uses that are plain conveniences here: each compiles as TCA's own code
// writes it and behaves as its labelled or animation-free form.
import ComposableArchitecture
import Testing

@Reducer
struct ScorePair {
  @ObservableState
  struct State: Equatable {
    var left = Counting.State()
    var right = Counting.State()
  }
  enum Action: Equatable {
    case left(Counting.Action)
    case right(Counting.Action)
  }
  var body: some ReducerOf<Self> {
    Scope(\.left, action: \.left) { Counting() }
    Scope(state: \.right, action: \.right) { Counting() }
  }
}

@MainActor
@Suite struct TCANamesTests {
  @Test func anUnlabelledScopeRunsItsChild() async {
    let store = TestStore(initialState: ScorePair.State()) { ScorePair() }
    await store.send(\.left.incrementButtonTapped) {
      $0.left.count = 1
    }
    await store.send(\.right.incrementButtonTapped) {
      $0.right.count = 1
    }
  }

  @Test func aStoreSendsWithAnAnimationAtOnce() {
    let store = Store(initialState: Counting.State()) { Counting() }
    store.send(.incrementButtonTapped, animation: .easeInOut(duration: 0.3))
    #expect(store.state.count == 1)
  }

  @Test func aResultKeepsWhatAnAsyncBodyReturnsOrThrows() async throws {
    struct Failure: Error {}
    let success = await Result { try await Task { 42 }.value }
    #expect(try success.get() == 42)
    let failure = await Result<Int, any Error> { throw Failure() }
    #expect(throws: Failure.self) { try failure.get() }
  }
}
