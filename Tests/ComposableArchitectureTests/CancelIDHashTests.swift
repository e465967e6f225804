@testable import ComposableArchitecture
import Testing

/// Cancellation identifiers of two empty types (`enum CancelID { case effect }` in two features)
/// are told apart and hash apart, as TCA's.
@Suite struct CancelIDHashTests {
  @Test func identifiersOfTwoEmptyTypesHashApart() {
    struct First: Hashable {}
    struct Second: Hashable {}
    let first = _CancelID(id: First(), navigationIDPath: NavigationIDPath())
    let second = _CancelID(id: Second(), navigationIDPath: NavigationIDPath())
    #expect(first != second)
    #expect(first.hashValue != second.hashValue)
    #expect(first == _CancelID(id: First(), navigationIDPath: NavigationIDPath()))
  }
}
