#if !canImport(SwiftUI)
  /// SwiftUI's key into the app's localized strings, as data: the key itself, which is the
  /// text in the development language. In a recording, the key as a string.
  ///
  /// ```swift
  /// var title: LocalizedStringKey = "Settings"
  /// TextState(title)
  /// ```
  public struct LocalizedStringKey: Hashable, Sendable, Codable, ExpressibleByStringInterpolation,
    CustomStringConvertible
  {
    /// The key.
    public let key: String

    /// The key `value`.
    public init(_ value: String) {
      self.key = value
    }

    public init(stringLiteral value: String) {
      self.key = value
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
      self.key = String(stringInterpolation: stringInterpolation)
    }

    public init(from decoder: any Decoder) throws {
      self.key = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(self.key)
    }

    /// The key.
    public var description: String { self.key }
  }

  extension TextState {
    /// The text of a localized key: here, the key itself.
    public init(_ key: LocalizedStringKey) {
      self.init(key.key)
    }
  }
#endif
