import ComposableArchitecture
import Foundation

/// Spends against a limit kept in a file, with what was spent shared in memory.
@Reducer
public struct Allowance: Sendable {
  /// The limit's file.
  public static let limitURL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("allowance/limit.json")

  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Shared(.fileStorage(Allowance.limitURL)) public var limit = 100
    @Shared(.inMemory("spent")) public var spent = 0
    public var refused: [Int] = []
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case raiseLimit(Int)
    case spend(Int)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .raiseLimit(limit):
        state.$limit.withLock { $0 = limit }
      case let .spend(amount):
        if state.spent + amount <= state.limit {
          state.$spent.withLock { $0 += amount }
        } else {
          state.refused.append(amount)
        }
      }
      return .none
    }
  }
}
