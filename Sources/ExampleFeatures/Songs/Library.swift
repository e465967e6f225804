import ComposableArchitecture

/// The list of songs.
public struct Library: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var songs: IdentifiedArrayOf<SongRow.State>

    public init(songs: IdentifiedArrayOf<SongRow.State> = []) {
      self.songs = songs
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case songs(IdentifiedActionOf<SongRow>)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.songs, action: \.songs) {
        SongRow()
      }
  }
}
