import ComposableArchitecture

/// The favourite songs, each with a button that removes it.
public struct Favorites: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var songs: IdentifiedArrayOf<Song>

    public init(songs: IdentifiedArrayOf<Song> = []) {
      self.songs = songs
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case removeButtonTapped(Song.ID)
    case removed(Song.ID)
  }

  @Dependency(\.favorites) var favorites

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .removeButtonTapped(id):
        return .run { send in
          _ = try await self.favorites.setFavorite(id, false)
          await send(.removed(id))
        }
      case let .removed(id):
        state.songs.remove(id: id)
        return .none
      }
    }
  }
}
