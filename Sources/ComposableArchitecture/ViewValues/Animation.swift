#if !canImport(SwiftUI)
  /// SwiftUI's animation, as data: what a feature asks the view to animate with, kept so that a
  /// feature written for SwiftUI compiles unchanged and its recordings say which it was.
  ///
  /// ```swift
  /// await send(.factResponse(fact), animation: .default)
  /// store.send(.toggleButtonTapped, animation: .easeInOut(duration: 0.3))
  /// ```
  ///
  /// Nothing animates here: state changes at once, as it does in TCA's tests. In a recording,
  /// the description: `"easeInOut(duration: 0.3).delay(0.1)"`.
  public struct Animation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The curve and its modifiers, as they are written in Swift.
    public let description: String

    /// An animation described as Swift writes it.
    public init(_ description: String) {
      self.description = description
    }

    public init(from decoder: any Decoder) throws {
      self.description = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(self.description)
    }

    private static func curve(_ name: String, duration: Double?) -> Self {
      Self(duration.map { "\(name)(duration: \($0))" } ?? name)
    }

    private func modified(_ modifier: String) -> Self {
      Self("\(self.description).\(modifier)")
    }

    /// The platform's default animation.
    public static let `default` = Self("default")
    /// Starts slowly.
    public static let easeIn = Self("easeIn")
    /// Ends slowly.
    public static let easeOut = Self("easeOut")
    /// Starts and ends slowly.
    public static let easeInOut = Self("easeInOut")
    /// At a constant speed.
    public static let linear = Self("linear")
    /// A spring.
    public static let spring = Self("spring")
    /// A spring with a little bounce.
    public static let bouncy = Self("bouncy")
    /// A spring without bounce.
    public static let smooth = Self("smooth")
    /// A quick spring.
    public static let snappy = Self("snappy")
    /// A spring for interactive changes.
    public static let interactiveSpring = Self("interactiveSpring")

    /// Starts slowly, over `duration` seconds.
    public static func easeIn(duration: Double) -> Self { .curve("easeIn", duration: duration) }
    /// Ends slowly, over `duration` seconds.
    public static func easeOut(duration: Double) -> Self { .curve("easeOut", duration: duration) }
    /// Starts and ends slowly, over `duration` seconds.
    public static func easeInOut(duration: Double) -> Self {
      .curve("easeInOut", duration: duration)
    }
    /// At a constant speed, over `duration` seconds.
    public static func linear(duration: Double) -> Self { .curve("linear", duration: duration) }
    /// A spring of this response and damping.
    public static func spring(
      response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
    ) -> Self {
      Self(
        "spring(response: \(response), dampingFraction: \(dampingFraction), "
          + "blendDuration: \(blendDuration))")
    }
    /// A spring that lasts `duration` seconds, with `bounce`.
    public static func spring(duration: Double, bounce: Double = 0) -> Self {
      Self("spring(duration: \(duration), bounce: \(bounce))")
    }

    /// A spring for interactive changes, of this response and damping.
    public static func interactiveSpring(
      response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) -> Self {
      Self(
        "interactiveSpring(response: \(response), dampingFraction: \(dampingFraction), "
          + "blendDuration: \(blendDuration))")
    }
    /// A spring of this stiffness and damping, that keeps its velocity when interrupted.
    public static func interpolatingSpring(
      mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
    ) -> Self {
      Self(
        "interpolatingSpring(mass: \(mass), stiffness: \(stiffness), damping: \(damping), "
          + "initialVelocity: \(initialVelocity))")
    }
    /// A spring that lasts `duration` seconds, with `bounce`, that keeps its velocity when
    /// interrupted.
    public static func interpolatingSpring(
      duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0
    ) -> Self {
      Self(
        "interpolatingSpring(duration: \(duration), bounce: \(bounce), "
          + "initialVelocity: \(initialVelocity))")
    }
    /// A curve of these control points, over `duration` seconds.
    public static func timingCurve(
      _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = 0.35
    ) -> Self {
      Self("timingCurve(\(c0x), \(c0y), \(c1x), \(c1y), duration: \(duration))")
    }

    /// The animation, `delay` seconds later.
    public func delay(_ delay: Double) -> Self { self.modified("delay(\(delay))") }
    /// The animation, `speed` times as fast.
    public func speed(_ speed: Double) -> Self { self.modified("speed(\(speed))") }
    /// The animation, `count` times.
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Self {
      self.modified("repeatCount(\(count), autoreverses: \(autoreverses))")
    }
    /// The animation, again and again.
    public func repeatForever(autoreverses: Bool = true) -> Self {
      self.modified("repeatForever(autoreverses: \(autoreverses))")
    }
  }
#endif
