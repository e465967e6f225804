import ComposableArchitecture

/// A song in the library list, with a heart that saves it as a favourite.
public struct SongRow: Reducer, Sendable {
  public struct State: Equatable, Codable, Identifiable, Sendable {
    public var song: Song
    public var isFavorite = false
    public var isSaving = false
    public var id: Song.ID { self.song.id }

    public init(song: Song, isFavorite: Bool = false, isSaving: Bool = false) {
      self.song = song
      self.isFavorite = isFavorite
      self.isSaving = isSaving
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case favoriteFailed(String)
    case favoriteResponse(isFavorite: Bool)
    case heartTapped
  }

  @Dependency(\.favorites) var favorites

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .favoriteFailed:
        state.isSaving = false
        return .none

      case let .favoriteResponse(isFavorite):
        state.isFavorite = isFavorite
        state.isSaving = false
        return .none

      case .heartTapped:
        state.isSaving = true
        return .run { [id = state.id, isFavorite = state.isFavorite] send in
          let saved = try await self.favorites.setFavorite(id, !isFavorite)
          await send(.favoriteResponse(isFavorite: saved))
        } catch: { error, send in
          await send(.favoriteFailed("\(error)"))
        }
      }
    }
  }
}
