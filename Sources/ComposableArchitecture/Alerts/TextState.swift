/// Text shown to a person, as data: an alert's title, a button's label.
///
/// ```swift
/// TextState("Delete \(item.name)?")
/// ```
///
/// In a recording, a JSON string.
public struct TextState: Equatable, Hashable, Sendable, ExpressibleByStringInterpolation {
  /// The text.
  public let string: String

  /// Text to show.
  public init(_ string: String) {
    self.string = string
  }

  /// Text shown as it is, without localization.
  public init(verbatim string: String) {
    self.string = string
  }

  public init(stringLiteral string: String) {
    self.string = string
  }

  /// The texts one after the other.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(lhs.string + rhs.string)
  }
}

extension TextState: Codable {
  public init(from decoder: any Decoder) throws {
    self.string = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.string)
  }
}

extension TextState: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { self.string }
  public var debugDescription: String { "TextState(\(String(reflecting: self.string)))" }
}

extension String {
  /// The text a ``TextState`` shows.
  public init(state: TextState) {
    self = state.string
  }
}
