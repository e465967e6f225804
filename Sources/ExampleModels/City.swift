// The example apps' models, in a module of their own as an app's often are: plain data,
// declared without `Codable` and out of the architecture's macros' reach. A recording holds
// them as synthesized `Codable` would, and a replay builds them back.

/// A place a search finds.
public struct City: Equatable, Hashable, Identifiable, Sendable {
  public var id: String { self.name }
  public var name: String
  public var country: String

  public init(name: String, country: String) {
    self.name = name
    self.country = country
  }
}

/// A city's forecast for the day.
public struct Forecast: Equatable, Sendable {
  public var city: City
  /// Degrees Celsius.
  public var high: Double
  public var low: Double
  /// What the day looks like; `nil` when the service does not say.
  public var summary: String?

  public init(city: City, high: Double, low: Double, summary: String? = nil) {
    self.city = city
    self.high = high
    self.low = low
    self.summary = summary
  }
}
