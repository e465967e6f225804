/// The dependency values a reducer read while it processed one action, in the order it read
/// them, keyed by dependency name (`uuid`, `date`, `random`, or a name a user registered).
///
/// Each value is stored as text that converts back without loss: a UUID string, a date's seconds
/// since 2001-01-01 (the value a Foundation `Date` holds) as a shortest round-tripping decimal, a
/// random number in decimal.
public struct CapturedValues: Codable, Sendable, Equatable, Hashable {
  /// The values, by dependency name, in the order they were read.
  public var values: [String: [String]]

  /// Creates captured values.
  public init(_ values: [String: [String]] = [:]) {
    self.values = values
  }

  /// Whether nothing was captured.
  public var isEmpty: Bool {
    self.values.values.allSatisfy(\.isEmpty)
  }

  /// The values captured for one dependency.
  public subscript(name: String) -> [String] {
    get { self.values[name] ?? [] }
    set { self.values[name] = newValue.isEmpty ? nil : newValue }
  }

  public init(from decoder: any Decoder) throws {
    self.values = try [String: [String]](from: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    try self.values.encode(to: encoder)
  }
}

/// Where a recorded action came from.
public enum RecordedOrigin: Sendable, Equatable, Hashable {
  /// Sent to the store from outside.
  case send
  /// Fed back by an effect of the action with this sequence number.
  case effect(parent: Int)
}
