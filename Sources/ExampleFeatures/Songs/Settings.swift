import ComposableArchitecture

/// How the library is shown.
public struct Settings: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var showsDurations = true
    public var sortOrder: SortOrder = .title

    public init(showsDurations: Bool = true, sortOrder: SortOrder = .title) {
      self.showsDurations = showsDurations
      self.sortOrder = sortOrder
    }
  }

  /// The order of the library.
  public enum SortOrder: String, CaseIterable, Codable, Equatable, Sendable {
    case artist
    case title
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case showsDurationsToggled
    case sortOrderPicked(SortOrder)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showsDurationsToggled:
        state.showsDurations.toggle()
        return .none
      case let .sortOrderPicked(sortOrder):
        state.sortOrder = sortOrder
        return .none
      }
    }
  }
}
