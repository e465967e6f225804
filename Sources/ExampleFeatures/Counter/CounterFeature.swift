import ComposableArchitecture

/// A counter that can fetch a fact about its count and show it, or show an alert when that fails.
public struct CounterFeature: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var count = 0
    public var fact: String?
    public var isLoading = false
    public var alert: Alert?

    public init(count: Int = 0, fact: String? = nil, isLoading: Bool = false, alert: Alert? = nil) {
      self.count = count
      self.fact = fact
      self.isLoading = isLoading
      self.alert = alert
    }
  }

  /// An alert shown to the user.
  public struct Alert: Equatable, Codable, Sendable {
    public var title: String

    public init(title: String) {
      self.title = title
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case alertDismissed
    case decrementButtonTapped
    case factButtonTapped
    case factFailed(String)
    case factResponse(String)
    case incrementButtonTapped
  }

  @Dependency(\.numberFact) var numberFact

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alertDismissed:
        state.alert = nil
        return .none

      case .decrementButtonTapped:
        state.count -= 1
        state.fact = nil
        return .none

      case .factButtonTapped:
        state.fact = nil
        state.isLoading = true
        return .run { [count = state.count] send in
          await send(.factResponse(try await self.numberFact.fetch(count)))
        } catch: { error, send in
          await send(.factFailed("\(error)"))
        }

      case let .factFailed(message):
        state.isLoading = false
        state.alert = Alert(title: "Could not load a number fact: \(message)")
        return .none

      case let .factResponse(fact):
        state.fact = fact
        state.isLoading = false
        return .none

      case .incrementButtonTapped:
        state.count += 1
        state.fact = nil
        return .none
      }
    }
  }
}
