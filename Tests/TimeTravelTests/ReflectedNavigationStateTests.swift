import ComposableArchitecture
import Foundation
import Testing
import TimeTravel

/// A state without `Codable` that holds a stack and a presentation is recorded and read back as
/// it was, empty or not: the stack in the shape of its own `Codable` (screens with their
/// identities), the presentation as what it presents or `null`.
@Suite struct ReflectedNavigationStateTests {
  struct Screen: Equatable { var n = 0 }
  struct Holder: Equatable {
    var path = StackState<Screen>()
    @Presents var sheet: Screen?
  }

  @Test(arguments: [
    Holder(),
    Holder(path: StackState([Screen(n: 1), Screen(n: 2)]), sheet: Screen(n: 3)),
  ])
  func readsBackAsItWas(_ holder: Holder) throws {
    let data = try JSONEncoder().encode(_Reflected(holder))
    let back = try JSONDecoder().decode(_Reflected<Holder>.self, from: data)
    #expect(back.value == holder)
    #expect(back.value.path.ids == holder.path.ids)
  }

  @Test func theStackIsWrittenAsItsOwnCodableWritesIt() throws {
    var path = StackState<Screen>()
    path.append(Screen(n: 7))
    let id = path.ids[0].rawValue
    let data = try JSONEncoder().encode(_Reflected(Holder(path: path)))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let entries = object?["path"] as? [[String: Any]]
    #expect(entries?.count == 1)
    #expect(entries?.first?["id"] as? Int == id)
    #expect((entries?.first?["element"] as? [String: Any])?["n"] as? Int == 7)
  }

  @Test func twoScreensWithOneIdentityAreAnError() {
    let data = Data(#"{"path":[{"element":{"n":1},"id":0},{"element":{"n":2},"id":0}]}"#.utf8)
    #expect(throws: (any Error).self) {
      try JSONDecoder().decode(_Reflected<Holder>.self, from: data)
    }
  }
}
