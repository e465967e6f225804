import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A feature whose responses carry errors, as TCA's apps write them: nothing `Codable`.
@Reducer
struct Lookup {
  @ObservableState
  struct State: Equatable {
    var failures = 0
  }
  enum Action {
    case response(Result<Int, any Error>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .response(.failure) = action { state.failures += 1 }
      return .none
    }
  }
}

struct CityNotFound: Error, Codable {
  var city: String
}

extension HTMLPageTests {
  /// A recorded error reads as Swift shows one: its type, and its values where it has a
  /// `Codable` form, else what it says.
  @Test func aRecordedErrorIsShownByItsTypeAndWhatItSays() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("lookup.actionlog")
    try await MainActor.run {
      let recorder = try RecorderOf<Lookup>(
        url: url, feature: "lookup", initialState: Lookup.State())
      let store = Store(initialState: Lookup.State()) { Lookup().recording(to: recorder) }
      store.send(.response(.failure(URLError(.notConnectedToInternet))))
      store.send(.response(.failure(CityNotFound(city: "Oslo"))))
      store.send(.response(.success(3)))
      try recorder.close()
    }
    let facts = try await self.page(url.path, in: directory, browser: ["--every-step"])
    #expect(facts.errors == [], "the page's errors")
    let description = URLError(.notConnectedToInternet).localizedDescription
    #expect(
      facts.everyStep?.map(\.action)
        == [
          #".response(.failure(URLError("\#(description)")))"#,
          #".response(.failure(CityNotFound(city: "Oslo")))"#,
          ".response(.success(3))",
        ])
  }
}
