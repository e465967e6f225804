import ComposableArchitecture
import ComposableArchitectureTestingLoader
@_spi(Internals) import Dependencies

#if canImport(XCTest) && !_runtime(_ObjC)
  import XCTest

  /// What the core needs of XCTest on Linux, installed by this module: the core finds it at run
  /// time by its name (a test pins it), so that apps never link XCTest.
  public struct _XCTestHooksInstallation: _XCTestHooks {
    public static func _addTeardownBlock(_ block: @escaping @Sendable () -> Void) -> Bool {
      guard let test = RunningXCTest.shared.current else { return false }
      test.addTeardownBlock(block)
      return true
    }
  }

  /// Which XCTest test is running, told by XCTest from the time this module loads; each test
  /// starts with the dependencies' cached default values cleared.
  final class RunningXCTest: NSObject, XCTestObservation, @unchecked Sendable {
    // NB: Unchecked: `test` is read and written holding `lock`.
    static let shared = RunningXCTest()
    private let lock = NSLock()
    private var test: XCTestCase?

    var current: XCTestCase? { self.lock.withLock { self.test } }

    func testCaseWillStart(_ testCase: XCTestCase) {
      self.lock.withLock { self.test = testCase }
      // NB: Each test starts with the default dependencies made afresh (a new counter of stack
      // identities, say), as swift-dependencies does where its own observer loads.
      DependencyValues._current.cachedValues.resetCache()
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
      self.lock.withLock { if self.test === testCase { self.test = nil } }
    }
  }

  @_cdecl("_composable_architecture_testing_did_load")
  public func _composableArchitectureTestingDidLoad() {
    XCTestObservationCenter.shared.addTestObserver(RunningXCTest.shared)
  }
#endif
