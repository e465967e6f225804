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
