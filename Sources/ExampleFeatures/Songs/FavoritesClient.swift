import ComposableArchitecture

/// Saves which songs are favourites.
public struct FavoritesClient: Sendable {
  /// Marks a song as a favourite or not, and returns whether it now is one.
  public var setFavorite: @Sendable (_ songID: Song.ID, _ isFavorite: Bool) async throws -> Bool

  /// Creates a client from a save function.
  public init(
    setFavorite: @escaping @Sendable (_ songID: Song.ID, _ isFavorite: Bool) async throws -> Bool
  ) {
    self.setFavorite = setFavorite
  }
}

extension FavoritesClient: DependencyKey {
  /// Keeps favourites in memory for the life of the process.
  public static var liveValue: FavoritesClient {
    let favorites = LockIsolated<Set<Song.ID>>([])
    return FavoritesClient { songID, isFavorite in
      favorites.withValue {
        if isFavorite { $0.insert(songID) } else { $0.remove(songID) }
      }
      return isFavorite
    }
  }

  /// Fails the test when called: tests override `setFavorite` with what the test needs.
  public static let testValue = FavoritesClient(
    setFavorite: unimplemented("FavoritesClient.setFavorite", placeholder: false)
  )
}

extension DependencyValues {
  /// A client that saves favourite songs.
  public var favorites: FavoritesClient {
    get { self[FavoritesClient.self] }
    set { self[FavoritesClient.self] = newValue }
  }
}
