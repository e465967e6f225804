import ComposableArchitecture
import Foundation

/// A tip jar, written as TCA's apps write features: nothing `Codable`, nothing `Sendable`
/// declared, a response that may fail.
@Reducer
public struct Tips {
  @ObservableState
  public struct State: Equatable {
    public var tips: [Tip] = []
    public var lastError: String?
    public init() {}

    public struct Tip: Equatable {
      public var amount: Int
      public var note: String?
    }
  }

  public enum Action {
    case tipped(Int, note: String?)
    case charged(Result<Int, any Error>)
  }

  /// What is added to each tip: 0, unless a test changes the feature's behaviour.
  let bonus: Int

  public init(bonus: Int = 0) {
    self.bonus = bonus
  }

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .tipped(amount, note):
        state.tips.append(State.Tip(amount: amount + self.bonus, note: note))
      case .charged(.success):
        state.lastError = nil
      case let .charged(.failure(error)):
        state.lastError = error.localizedDescription
      }
      return .none
    }
  }
}
