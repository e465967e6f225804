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
      $0.searchClient.forecast = { Forecast(city: $0, high: 21, low: 12, summary: "Sunny") }
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
    let porto = City(name: "Porto", country: "Portugal")
    await store.send(.resultTapped(porto)) {
      $0.selected = porto
    }
    await store.receive(\.forecastResponse.success) {
      $0.destination = .forecast(
        ForecastDetail.State(forecast: Forecast(city: porto, high: 21, low: 12, summary: "Sunny"))
      )
    }
    await store.send(\.destination.forecast.unitToggled) {
      $0.destination?.modify(\.forecast) { $0.showsFahrenheit = true }
    }
    await store.send(\.destination.forecast.closeButtonTapped)
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func aForecastThatFailsShowsAnAlertThatTriesAgain() async {
    let attempts = LockIsolated(0)
    let oslo = City(name: "Oslo", country: "Norway")
    let store = TestStore(initialState: CitySearch.State(query: "Oslo", results: [oslo])) {
      CitySearch()
    } withDependencies: {
      $0.searchClient.forecast = { city in
        guard
          attempts.withValue({
            $0 += 1; return $0
          }) > 1
        else {
          throw URLError(.notConnectedToInternet)
        }
        return Forecast(city: city, high: 9, low: 1)
      }
    }
    await store.send(.resultTapped(oslo)) {
      $0.selected = oslo
    }
    await store.receive(\.forecastResponse.failure) {
      $0.destination = .alert(
        AlertState {
          TextState("No forecast for Oslo")
        } actions: {
          ButtonState(action: .retry(oslo)) { TextState("Try again") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        } message: {
          TextState(URLError(.notConnectedToInternet).localizedDescription)
        }
      )
    }
    await store.send(\.destination.alert.retry, oslo) {
      $0.destination = nil
    }
    await store.receive(\.forecastResponse.success) {
      $0.destination = .forecast(
        ForecastDetail.State(forecast: Forecast(city: oslo, high: 9, low: 1)))
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
