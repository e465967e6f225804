/// A song in the library.
public struct Song: Equatable, Codable, Identifiable, Sendable {
  public let id: Int
  public var title: String
  public var artist: String
  /// Length in seconds.
  public var duration: Int

  public init(id: Int, title: String, artist: String, duration: Int) {
    self.id = id
    self.title = title
    self.artist = artist
    self.duration = duration
  }

  /// A small catalogue to start the app with.
  public static let catalog: [Song] = [
    Song(id: 1, title: "Blue in Green", artist: "Miles Davis", duration: 337),
    Song(id: 2, title: "Cantaloupe Island", artist: "Herbie Hancock", duration: 345),
    Song(id: 3, title: "Giant Steps", artist: "John Coltrane", duration: 286),
    Song(id: 4, title: "Naima", artist: "John Coltrane", duration: 261),
    Song(id: 5, title: "Round Midnight", artist: "Thelonious Monk", duration: 193),
    Song(id: 6, title: "So What", artist: "Miles Davis", duration: 562),
    Song(id: 7, title: "Take Five", artist: "Dave Brubeck", duration: 324),
    Song(id: 8, title: "Watermelon Man", artist: "Herbie Hancock", duration: 431),
  ]
}
