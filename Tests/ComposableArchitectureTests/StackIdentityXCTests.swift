import ComposableArchitecture
import XCTest

/// Under XCTest on Linux, as under Swift Testing, each test counts stack identities from #0: the
/// dependencies' cached defaults are made afresh as each test starts.
final class StackIdentityXCTests: XCTestCase {
  func testTheFirstScreenOfATestIsZero() {
    var path = StackState<Int>()
    path.append(1)
    XCTAssertEqual(path.ids, [0])
  }

  func testTheFirstScreenOfAnotherTestIsZeroToo() {
    // NB: Whichever of these two runs second fails if the counter is carried over.
    var path = StackState<Int>()
    path.append(1)
    path.append(2)
    XCTAssertEqual(path.ids, [0, 1])
  }
}
