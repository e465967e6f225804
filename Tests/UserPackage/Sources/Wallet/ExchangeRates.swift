import ComposableArchitecture
import Foundation

/// The wallet's currency conversions, written in the older environment style some apps keep:
/// the feature's own dependencies wrapped with system-wide ones, reached by dynamic member lookup.
@dynamicMemberLookup
public struct WalletEnvironment<Environment: Sendable>: Sendable {
  public var now: @Sendable () -> Date
  public var environment: Environment

  public init(now: @escaping @Sendable () -> Date, environment: Environment) {
    self.now = now
    self.environment = environment
  }

  public subscript<Value>(dynamicMember keyPath: KeyPath<Environment, Value>) -> Value {
    self.environment[keyPath: keyPath]
  }
}

/// What converting needs besides the clock: the rate for a currency.
public struct ExchangeRates: Sendable {
  public var rate: @Sendable (String) -> Double

  public init(rate: @escaping @Sendable (String) -> Double) {
    self.rate = rate
  }
}

extension WalletEnvironment<ExchangeRates> {
  /// Converts an amount into a currency, stamped with the time of the rate.
  public func convert(_ amount: Double, to currency: String) -> (amount: Double, at: Date) {
    (amount * self.rate(currency), self.now())
  }
}

#if DEBUG
  import XCTestDynamicOverlay

  extension WalletEnvironment {
    /// An environment whose clock reports an issue when it is read, for tests that must not read it.
    public static func unimplemented(environment: Environment) -> Self {
      Self(
        // NB: The name this style's apps use; `unimplemented` is its newer spelling.
        now: XCTUnimplemented("WalletEnvironment.now", placeholder: Date(timeIntervalSince1970: 0)),
        environment: environment
      )
    }
  }
#endif
