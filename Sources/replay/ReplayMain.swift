import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import ReplayREPL
import TimeTravel

/// `replay` for the example features.
@main
struct ReplayMain {
  static func main() {
    ReplayCommand.main(features: [
      ReplayFeature("counter") { CounterFeature() },
      ReplayFeature("todos") { Todos() },
      ReplayFeature(
        "songs",
        behaviours: [
          // The songs app before its hearts were fixed: what its bug reports were recorded with.
          "heart-bug": {
            SongsApp().dependency(\.reintroducedBugs, .heartStaysFilledAfterRemovingFavorite)
          }
        ]
      ) { SongsApp() },
      ReplayFeature("inventory") { Inventory() },
      ReplayFeature("contacts") { Contacts() },
      // Children, for their own recordings cut out of their apps' (replay export --scope).
      ReplayFeature("contactDetail") { ContactDetail() },
      ReplayFeature("songRow") { SongRow() },
      ReplayFeature("search") { CitySearch() },
      ReplayFeature("preferences") { Preferences() },
    ])
  }
}
