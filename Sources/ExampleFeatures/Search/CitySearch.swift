import ComposableArchitecture
import Foundation

/// A search field whose request waits for typing to pause, and its results; a result tapped
/// shows its forecast, or an alert when the forecast fails. Written as TCA's apps are, with
/// nothing declared `Codable`: its models are in another module, and the forecast arrives as
/// a `Result` whose error is any error.
@Reducer
public struct CitySearch: Sendable {
  @Reducer
  public enum Destination {
    case forecast(ForecastDetail)
    case alert(AlertState<Alert>)

    @CasePathable
    public enum Alert: Equatable, Sendable {
      case retry(City)
    }
  }

  @ObservableState
  public struct State: Equatable, Sendable {
    @Presents public var destination: Destination.State?
    public var query = ""
    public var isSearching = false
    public var results: [City] = []
    public var selected: City?
    public var errorMessage: String?

    public init(query: String = "", results: [City] = []) {
      self.query = query
      self.results = results
    }
  }

  public enum Action: BindableAction, Sendable {
    case binding(BindingAction<State>)
    case destination(PresentationAction<Destination.Action>)
    case forecastResponse(Result<Forecast, any Error>)
    case resultTapped(City)
    case searchFailed(String)
    case searchResponse([City])
  }

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.searchClient) var searchClient

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.query) { _, query in
        Reduce { state, _ in
          state.errorMessage = nil
          guard !query.isEmpty else {
            state.isSearching = false
            state.results = []
            return .cancel(id: CancelID.search)
          }
          state.isSearching = true
          return .run { send in
            await send(.searchResponse(try await self.searchClient.search(query)))
          } catch: { error, send in
            await send(.searchFailed(error.localizedDescription))
          }
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: self.clock)
        }
      }
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case let .destination(.presented(.alert(.retry(city)))):
        return self.forecast(city)

      case .destination:
        return .none

      case let .forecastResponse(.success(forecast)):
        state.destination = .forecast(ForecastDetail.State(forecast: forecast))
        return .none

      case let .forecastResponse(.failure(error)):
        guard let city = state.selected else { return .none }
        state.destination = .alert(
          AlertState {
            TextState("No forecast for \(city.name)")
          } actions: {
            ButtonState(action: .retry(city)) { TextState("Try again") }
            ButtonState(role: .cancel) { TextState("Cancel") }
          } message: {
            TextState(error.localizedDescription)
          }
        )
        return .none

      case let .resultTapped(city):
        state.selected = city
        return self.forecast(city)

      case let .searchFailed(message):
        state.isSearching = false
        state.errorMessage = message
        return .none

      case let .searchResponse(results):
        state.isSearching = false
        state.results = results
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }

  private func forecast(_ city: City) -> Effect<Action> {
    .run { send in
      await send(.forecastResponse(Result { try await self.searchClient.forecast(city) }))
    }
  }
}

extension CitySearch.Destination.State: Equatable, Sendable {}
extension CitySearch.Destination.Action: Sendable {}
