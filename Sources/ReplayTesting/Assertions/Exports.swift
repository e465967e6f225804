// A test target that imports ReplayTesting can also write regression tests' sources.
@_exported import ReplayTestGeneration
