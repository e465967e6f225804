import ComposableArchitecture

/// The song favourites app: a library of songs, the favourites, and settings, side by side.
///
/// Tapping a song's heart saves it through the ``FavoritesClient`` and, once saved, adds it to
/// (or removes it from) the favourites; removing a favourite clears the library's heart. Picking a
/// sort order re-sorts the library.
public struct SongsApp: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var favorites: Favorites.State
    public var library: Library.State
    public var settings: Settings.State

    public init(
      favorites: Favorites.State = Favorites.State(),
      library: Library.State = Library.State(
        songs: IdentifiedArray(uniqueElements: Song.catalog.map { SongRow.State(song: $0) })
      ),
      settings: Settings.State = Settings.State()
    ) {
      self.favorites = favorites
      self.library = library
      self.settings = settings
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case favorites(Favorites.Action)
    case library(Library.Action)
    case settings(Settings.Action)
  }

  @Dependency(\.reintroducedBugs) var reintroducedBugs

  public init() {}

  public var body: some ReducerOf<Self> {
    // NB: `onChange` wraps every reducer here, so that it sees the sort order before and after the
    // `Settings` scope changes it.
    CombineReducers {
      Scope(state: \.library, action: \.library) {
        Library()
      }
      Scope(state: \.favorites, action: \.favorites) {
        Favorites()
      }
      Scope(state: \.settings, action: \.settings) {
        Settings()
      }
      Reduce { state, action in
        switch action {
        case let .library(.songs(.element(id, .favoriteResponse(isFavorite)))):
          guard let row = state.library.songs[id: id] else { return .none }
          if isFavorite {
            state.favorites.songs.append(row.song)
          } else {
            state.favorites.songs.remove(id: id)
          }
          return .none

        case let .favorites(.removed(id)):
          if self.reintroducedBugs.contains(.heartStaysFilledAfterRemovingFavorite) {
            return .none
          }
          state.library.songs[id: id]?.isFavorite = false
          return .none

        case .favorites, .library, .settings:
          return .none
        }
      }
    }
    .onChange(of: \.settings.sortOrder) { _, sortOrder in
      Reduce { state, _ in
        state.library.songs.sort { lhs, rhs in
          switch sortOrder {
          case .artist:
            (lhs.song.artist, lhs.song.title) < (rhs.song.artist, rhs.song.title)
          case .title:
            lhs.song.title < rhs.song.title
          }
        }
        return .none
      }
    }
  }
}
