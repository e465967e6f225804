import Budget
import ComposableArchitecture

/// Shows the limits, which it only reads.
@Reducer
public struct Summary: Sendable {
  @ObservableState
  public struct State: Equatable {
    @SharedReader(.limits) public var limits
    public var text = ""
    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case refreshButtonTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.text = "Limit: \(state.limits.monthly)"
      return .none
    }
  }
}
