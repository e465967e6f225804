import Budget
import ComposableArchitecture

/// Spends against the limits, and raises them.
@Reducer
public struct Spending: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Shared(.limits) public var limits
    public var spent = 0
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case raiseLimitButtonTapped
    case spend(Int)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .raiseLimitButtonTapped:
        state.$limits.withLock { $0.monthly += 50 }
        return .none
      case let .spend(amount):
        state.spent += amount
        return .none
      }
    }
  }
}
