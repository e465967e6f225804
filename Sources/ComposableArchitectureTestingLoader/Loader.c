#include "ComposableArchitectureTestingLoader.h"

// Defined in Swift by ComposableArchitectureTesting (`@_cdecl`); weak, so that a binary without
// it still loads.
extern void _composable_architecture_testing_did_load(void) __attribute__((weak));

__attribute__((constructor)) static void composable_architecture_testing_load(void) {
  if (_composable_architecture_testing_did_load) {
    _composable_architecture_testing_did_load();
  }
}
