import ComposableArchitecture

/// Fetches a fact about a number.
public struct NumberFactClient: Sendable {
  /// Returns a fact about the number.
  public var fetch: @Sendable (_ number: Int) async throws -> String

  /// Creates a client from a fetch function.
  public init(fetch: @escaping @Sendable (_ number: Int) async throws -> String) {
    self.fetch = fetch
  }
}

extension NumberFactClient: DependencyKey {
  /// Computes facts locally: a number's parity, whether it is prime, a square, or negative.
  public static let liveValue = NumberFactClient { number in
    Self.fact(about: number)
  }

  /// Fails the test when called: tests override `fetch` with what the test needs.
  public static let testValue = NumberFactClient(
    fetch: unimplemented("NumberFactClient.fetch", placeholder: "")
  )

  /// A fact about a number, computed without a network.
  public static func fact(about number: Int) -> String {
    if number < 0 {
      return "\(number) is a negative number."
    }
    if Self.isPrime(number) {
      return "\(number) is a prime number."
    }
    let root = Int(Double(number).squareRoot())
    if number > 1, root * root == number {
      return "\(number) is the square of \(root)."
    }
    return "\(number) is an \(number.isMultiple(of: 2) ? "even" : "odd") number."
  }

  private static func isPrime(_ number: Int) -> Bool {
    guard number >= 2 else { return false }
    var divisor = 2
    while divisor * divisor <= number {
      if number % divisor == 0 { return false }
      divisor += 1
    }
    return true
  }
}

extension DependencyValues {
  /// A client that fetches facts about numbers.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
