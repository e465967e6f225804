// Starts ComposableArchitectureTesting's XCTest observer when the test binary loads, before the
// first test starts: what tells the core which XCTest test is running.
#ifndef COMPOSABLE_ARCHITECTURE_TESTING_LOADER_H
#define COMPOSABLE_ARCHITECTURE_TESTING_LOADER_H
#endif
