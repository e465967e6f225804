import ComposableArchitecture
import ExampleFeatures
import TestSupport
import Testing

@MainActor
@Suite struct SongsAppTests {
  private func makeStore() -> TestStoreOf<SongsApp> {
    TestStore(initialState: SongsApp.State()) {
      SongsApp()
    } withDependencies: {
      $0.favorites.setFavorite = { _, isFavorite in isFavorite }
    }
  }

  @Test func heartAddsAndRemovesAFavorite() async {
    let store = self.makeStore()
    let song = Song.catalog[2]
    await store.send(.library(.songs(.element(id: song.id, action: .heartTapped)))) {
      $0.library.songs[id: song.id]?.isSaving = true
    }
    await store.receive(\.library.songs[id: song.id].favoriteResponse, true) {
      $0.library.songs[id: song.id]?.isSaving = false
      $0.library.songs[id: song.id]?.isFavorite = true
      $0.favorites.songs = [song]
    }
    await store.send(.library(.songs(.element(id: song.id, action: .heartTapped)))) {
      $0.library.songs[id: song.id]?.isSaving = true
    }
    await store.receive(\.library.songs[id: song.id].favoriteResponse, false) {
      $0.library.songs[id: song.id]?.isSaving = false
      $0.library.songs[id: song.id]?.isFavorite = false
      $0.favorites.songs = []
    }
  }

  @Test func removingAFavoriteClearsTheHeart() async {
    let song = Song.catalog[0]
    var state = SongsApp.State()
    state.library.songs[id: song.id]?.isFavorite = true
    state.favorites.songs = [song]
    let store = TestStore(initialState: state) {
      SongsApp()
    } withDependencies: {
      $0.favorites.setFavorite = { _, isFavorite in isFavorite }
    }
    await store.send(.favorites(.removeButtonTapped(song.id)))
    await store.receive(.favorites(.removed(song.id))) {
      $0.favorites.songs = []
      $0.library.songs[id: song.id]?.isFavorite = false
    }
  }

  @Test func savingFailureLeavesTheHeartAlone() async {
    struct Full: Error {}
    let song = Song.catalog[1]
    let store = TestStore(initialState: SongsApp.State()) {
      SongsApp()
    } withDependencies: {
      $0.favorites.setFavorite = { _, _ in throw Full() }
    }
    await store.send(.library(.songs(.element(id: song.id, action: .heartTapped)))) {
      $0.library.songs[id: song.id]?.isSaving = true
    }
    await store.receive(\.library.songs[id: song.id].favoriteFailed) {
      $0.library.songs[id: song.id]?.isSaving = false
    }
  }

  @Test func sortOrderResortsTheLibrary() async {
    let store = self.makeStore()
    await store.send(.settings(.sortOrderPicked(.artist))) {
      $0.settings.sortOrder = .artist
      $0.library.songs.sort {
        ($0.song.artist, $0.song.title) < ($1.song.artist, $1.song.title)
      }
    }
    #expect(
      store.state.library.songs.map(\.song.artist).first == "Dave Brubeck"
    )
    await store.send(.settings(.showsDurationsToggled)) {
      $0.settings.showsDurations = false
    }
  }
}
