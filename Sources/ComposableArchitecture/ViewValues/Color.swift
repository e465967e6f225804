#if !canImport(SwiftUI)
  /// SwiftUI's colour, as data: what a feature keeps in its state or sends in an action
  /// (`case setColor(Color)`, a theme's `mainColor`), so that a feature written for SwiftUI
  /// compiles unchanged and its recordings say which colour it was.
  ///
  /// ```swift
  /// state.circleColor = .red
  /// var mainColor: Color { Color(rawValue) }
  /// ```
  ///
  /// Nothing is drawn here. In a recording, the description as Swift writes it: `"red"`,
  /// `"Color(\"bubblegum\")"`, `"Color(red: 1.0, green: 0.5, blue: 0.0).opacity(0.5)"`.
  public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The colour as it is written in Swift.
    public let description: String

    private init(description: String) {
      self.description = description
    }

    /// A colour from the app's asset catalogue, by name.
    public init(_ name: String) {
      self.description = "Color(\(String(reflecting: name)))"
    }

    /// A colour of these red, green and blue components, from 0 to 1.
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
      self.description =
        "Color(red: \(red), green: \(green), blue: \(blue)"
        + (opacity == 1 ? ")" : ", opacity: \(opacity))")
    }

    /// A colour of this hue, saturation and brightness, from 0 to 1.
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
      self.description =
        "Color(hue: \(hue), saturation: \(saturation), brightness: \(brightness)"
        + (opacity == 1 ? ")" : ", opacity: \(opacity))")
    }

    /// A grey of this whiteness, from 0 to 1.
    public init(white: Double, opacity: Double = 1) {
      self.description = "Color(white: \(white)" + (opacity == 1 ? ")" : ", opacity: \(opacity))")
    }

    public init(from decoder: any Decoder) throws {
      self.description = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(self.description)
    }

    /// The colour, this opaque.
    public func opacity(_ opacity: Double) -> Self {
      Self(description: "\(self.description).opacity(\(opacity))")
    }

    public static let black = Self(description: "black")
    public static let blue = Self(description: "blue")
    public static let brown = Self(description: "brown")
    public static let clear = Self(description: "clear")
    public static let cyan = Self(description: "cyan")
    public static let gray = Self(description: "gray")
    public static let green = Self(description: "green")
    public static let indigo = Self(description: "indigo")
    public static let mint = Self(description: "mint")
    public static let orange = Self(description: "orange")
    public static let pink = Self(description: "pink")
    public static let purple = Self(description: "purple")
    public static let red = Self(description: "red")
    public static let teal = Self(description: "teal")
    public static let white = Self(description: "white")
    public static let yellow = Self(description: "yellow")
    /// The platform's colour for primary content.
    public static let primary = Self(description: "primary")
    /// The platform's colour for secondary content.
    public static let secondary = Self(description: "secondary")
    /// The app's accent colour.
    public static let accentColor = Self(description: "accentColor")
  }
#endif
