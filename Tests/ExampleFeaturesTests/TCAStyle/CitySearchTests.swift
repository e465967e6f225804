// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
import ComposableArchitecture
import Foundation
import TestSupport
import Testing

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

@MainActor
@Suite struct CitySearchTests {
  @Test func theRequestWaitsForTypingToPause() async {
    let clock = CountingTestClock()
    let requests = LockIsolated<[String]>([])
    let store = TestStore(initialState: CitySearch.State()) {
      CitySearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.searchClient.search = { query in
        requests.withValue { $0.append(query) }
        return SearchClient.atlas.filter { $0.name.localizedCaseInsensitiveContains(query) }
      }
    }
    await store.send(\.binding.query, "Po") {
      $0.query = "Po"
      $0.isSearching = true
    }
    #expect(await clock.waitForSleep(number: 1))
    await clock.advance(by: .milliseconds(200))
    await store.send(\.binding.query, "Por") {
      $0.query = "Por"
    }
    #expect(await clock.waitForSleep(number: 2))
    await clock.advance(by: .milliseconds(299))
    #expect(requests.value == [])
    await clock.advance(by: .milliseconds(1))
    await store.receive(\.searchResponse) {
      $0.isSearching = false
      $0.results = [City(name: "Porto", country: "Portugal")]
    }
    #expect(requests.value == ["Por"])
    await store.send(.resultTapped(City(name: "Porto", country: "Portugal"))) {
      $0.selected = City(name: "Porto", country: "Portugal")
    }
  }

  @Test func clearingTheQueryCancelsTheWaitingRequest() async {
    let clock = TestClock()
    let store = TestStore(initialState: CitySearch.State()) {
      CitySearch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(\.binding.query, "Li") {
      $0.query = "Li"
      $0.isSearching = true
    }
    await store.send(\.binding.query, "") {
      $0.query = ""
      $0.isSearching = false
    }
    // Nothing arrives, and nothing is left running (the store checks at the end of the test).
    await clock.advance(by: .seconds(1))
  }

  @Test func aFailedRequestSaysSo() async {
    struct Offline: LocalizedError {
      var errorDescription: String? { "The atlas is offline." }
    }
    let clock = TestClock()
    let store = TestStore(initialState: CitySearch.State()) {
      CitySearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.searchClient.search = { _ in throw Offline() }
    }
    await store.send(\.binding.query, "Oslo") {
      $0.query = "Oslo"
      $0.isSearching = true
    }
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.searchFailed, "The atlas is offline.") {
      $0.isSearching = false
      $0.errorMessage = "The atlas is offline."
    }
  }
}
