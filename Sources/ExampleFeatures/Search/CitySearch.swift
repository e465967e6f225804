import ComposableArchitecture
import Foundation

/// A search field whose request waits for typing to pause, and its results.
@Reducer
public struct CitySearch: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
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

  public enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
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

      case let .resultTapped(city):
        state.selected = city
        return .none

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
  }
}
