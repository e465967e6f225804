import ComposableArchitectureTesting
import Testing

@testable import ComposableArchitecture

/// The core finds the test-store recorder `ComposableArchitectureTesting` installs at run time,
/// by its name, so that it knows nothing of recordings; a rename on one side only would turn
/// test recordings off without a word. This test names both sides: a rename of the type breaks its build, and a rename of the
/// name the core looks up fails it.
@Suite struct TestStoreRecorderLookupTests {
  @Test func theCoreFindsTheTestStoreRecorderByItsName() throws {
    let found = try #require(
      _TestStoreRecorders.maker,
      "the core does not find ComposableArchitectureTesting._TestStoreRecorderInstallation")
    #expect(ObjectIdentifier(found) == ObjectIdentifier(_TestStoreRecorderInstallation.self))
  }
}
