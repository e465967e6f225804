// Compiled twice: here, in the Swift 6 language mode, and in ExampleFeaturesSwift5Tests, in the
// Swift 5 mode.
import ComposableArchitecture
import Foundation
import Testing

// A feature with neither state nor actions of its own, as TCA's tests declare `ChildFeature {}`:
// its `Action` has no cases, so a parent's case holding it can never be sent, and Swift 6 does
// not count a switch over such cases as exhaustive. The code the macros write for the parent's
// `State` and `Action` must compile all the same, in a file-private scope as at the top level.
private enum Placeholders {
  @Reducer
  struct Placeholder {}

  @Reducer(state: .equatable)
  enum Destination {
    case placeholder(Placeholder)
  }
}

@Suite struct UninhabitedChildActionTests {
  @Test func aParentOfAFeatureWithoutActionsStillCodesItsState() throws {
    let state = Placeholders.Destination.State.placeholder(Placeholders.Placeholder.State())
    let data = try JSONEncoder().encode(state)
    let decoded = try JSONDecoder().decode(Placeholders.Destination.State.self, from: data)
    #expect(decoded == state)
  }

  @Test func anActionOfAFeatureWithoutActionsFailsToDecodeWithAReason() throws {
    let data = Data(#"{"placeholder":{"_0":{}}}"#.utf8)
    let error = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Placeholders.Destination.Action.self, from: data)
    }
    #expect(
      "\(String(describing: error))".contains("Placeholder.Action is an object of one member"))
  }
}
