import ComposableArchitecture
import ExampleFeatures
import TestSupport
import Testing

@MainActor
@Suite struct CounterFeatureTests {
  @Test func incrementAndDecrement() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    }
    await store.send(.incrementButtonTapped) {
      $0.count = 1
    }
    await store.send(.decrementButtonTapped) {
      $0.count = 0
    }
    await store.send(.decrementButtonTapped) {
      $0.count = -1
    }
  }

  @Test func factButtonFetchesAFact() async {
    let store = TestStore(initialState: CounterFeature.State(count: 3)) {
      CounterFeature()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }
    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(\.factResponse, "3 is a good number.") {
      $0.fact = "3 is a good number."
      $0.isLoading = false
    }
    await store.send(.incrementButtonTapped) {
      $0.count = 4
      $0.fact = nil
    }
  }

  @Test func factFailureShowsAnAlertUntilDismissed() async {
    struct Offline: Error, CustomStringConvertible {
      var description: String { "offline" }
    }
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.numberFact.fetch = { _ in throw Offline() }
    }
    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(.factFailed("offline")) {
      $0.isLoading = false
      $0.alert = CounterFeature.Alert(title: "Could not load a number fact: offline")
    }
    await store.send(.alertDismissed) {
      $0.alert = nil
    }
  }

  @Test func liveNumberFactsAreComputedLocally() {
    #expect(NumberFactClient.fact(about: 7) == "7 is a prime number.")
    #expect(NumberFactClient.fact(about: 9) == "9 is the square of 3.")
    #expect(NumberFactClient.fact(about: 10) == "10 is an even number.")
    #expect(NumberFactClient.fact(about: 1) == "1 is an odd number.")
    #expect(NumberFactClient.fact(about: -2) == "-2 is a negative number.")
  }
}
