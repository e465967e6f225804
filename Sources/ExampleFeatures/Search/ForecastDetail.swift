import ComposableArchitecture
import Foundation

/// A city's forecast, presented over the search.
@Reducer
public struct ForecastDetail: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var forecast: Forecast
    public var showsFahrenheit = false

    public init(forecast: Forecast) {
      self.forecast = forecast
    }
  }

  public enum Action: Sendable {
    case closeButtonTapped
    case unitToggled
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeButtonTapped:
        return .run { _ in await self.dismiss() }
      case .unitToggled:
        state.showsFahrenheit.toggle()
        return .none
      }
    }
  }
}
