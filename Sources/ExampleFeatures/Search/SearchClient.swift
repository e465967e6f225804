import ComposableArchitecture
@_exported import ExampleModels
import Foundation

/// Finds cities by name, and their forecasts.
@DependencyClient
public struct SearchClient: Sendable {
  /// The cities whose name contains `query`, ignoring case.
  public var search: @Sendable (_ query: String) async throws -> [City]
  /// The day's forecast for `city`.
  public var forecast: @Sendable (_ city: City) async throws -> Forecast
}

extension SearchClient: DependencyKey {
  /// Searches a small built-in atlas, as a server would, and forecasts from it: the same
  /// answer for a city every time, and no connection for Reykjavik.
  public static let liveValue = SearchClient(
    search: { query in
      Self.atlas.filter { $0.name.localizedCaseInsensitiveContains(query) }
    },
    forecast: { city in
      guard city.name != "Reykjavik" else { throw URLError(.notConnectedToInternet) }
      let seed = city.name.unicodeScalars.reduce(0) { $0 + Int($1.value) }
      let summaries = ["Sunny", "Cloudy", "Showers", nil]
      return Forecast(
        city: city, high: Double(12 + seed % 15), low: Double(2 + seed % 9),
        summary: summaries[seed % summaries.count])
    }
  )

  public static let testValue = SearchClient()

  /// The cities the live client knows.
  public static let atlas: [City] = [
    ("Amsterdam", "Netherlands"), ("Athens", "Greece"), ("Auckland", "New Zealand"),
    ("Barcelona", "Spain"), ("Berlin", "Germany"), ("Bern", "Switzerland"),
    ("Bordeaux", "France"), ("Boston", "United States"), ("Brisbane", "Australia"),
    ("Buenos Aires", "Argentina"), ("Cairo", "Egypt"), ("Copenhagen", "Denmark"),
    ("Dublin", "Ireland"), ("Edinburgh", "United Kingdom"), ("Helsinki", "Finland"),
    ("Lisbon", "Portugal"), ("London", "United Kingdom"), ("Lyon", "France"),
    ("Madrid", "Spain"), ("Melbourne", "Australia"), ("Montreal", "Canada"),
    ("Nairobi", "Kenya"), ("Oslo", "Norway"), ("Paris", "France"), ("Porto", "Portugal"),
    ("Prague", "Czechia"), ("Reykjavik", "Iceland"), ("Rome", "Italy"),
    ("San Francisco", "United States"), ("Seoul", "South Korea"), ("Stockholm", "Sweden"),
    ("Sydney", "Australia"), ("Tokyo", "Japan"), ("Toronto", "Canada"), ("Vienna", "Austria"),
  ].map { City(name: $0.0, country: $0.1) }
}

extension DependencyValues {
  /// Finds cities by name.
  public var searchClient: SearchClient {
    get { self[SearchClient.self] }
    set { self[SearchClient.self] = newValue }
  }
}
