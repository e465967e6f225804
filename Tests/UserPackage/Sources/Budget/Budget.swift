import ComposableArchitecture
import Foundation

/// The wallet's spending limits, which the budget, spending and summary screens share.
public struct Limits: Codable, Equatable, Sendable {
  public var monthly: Int

  public init(monthly: Int = 100) {
    self.monthly = monthly
  }
}

extension SharedKey where Self == FileStorageKey<Limits>.Default {
  /// The limits, kept in a file.
  public static var limits: Self {
    Self[
      .fileStorage(
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("limits.json")),
      default: Limits()]
  }
}

/// Sets the limits.
@Reducer
public struct Budget: Sendable {
  @ObservableState
  public struct State: Equatable {
    @Shared(.limits) public var limits
    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case resetButtonTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.$limits.withLock { $0 = Limits() }
      return .none
    }
  }
}
