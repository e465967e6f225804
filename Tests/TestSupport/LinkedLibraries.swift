/// The test frameworks among the shared libraries `ldd` lists for a program: an app's program
/// must list none.
public func testFrameworks(in lddOutput: String) -> [String] {
  let frameworks = ["libTesting.so", "libXCTest.so", "lib_TestingInterop.so"]
  return frameworks.filter { lddOutput.contains($0) }
}
