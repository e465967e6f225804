/// A song in the library.
public struct Song: Equatable, Codable, Identifiable, Sendable {
  public let id: Int
  public var title: String
  public var artist: String

  public init(id: Int, title: String, artist: String) {
    self.id = id
    self.title = title
    self.artist = artist
  }

  /// A small catalogue to start the app with.
  public static let catalog: [Song] = [
    Song(id: 1, title: "Blue in Green", artist: "Miles Davis"),
    Song(id: 2, title: "Cantaloupe Island", artist: "Herbie Hancock"),
    Song(id: 3, title: "Giant Steps", artist: "John Coltrane"),
    Song(id: 4, title: "Naima", artist: "John Coltrane"),
    Song(id: 5, title: "Round Midnight", artist: "Thelonious Monk"),
    Song(id: 6, title: "So What", artist: "Miles Davis"),
    Song(id: 7, title: "Take Five", artist: "Dave Brubeck"),
    Song(id: 8, title: "Watermelon Man", artist: "Herbie Hancock"),
  ]
}
