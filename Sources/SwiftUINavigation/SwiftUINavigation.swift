// `import SwiftUINavigation`, as TCA's apps write it beside `import ComposableArchitecture` for
// the navigation data types (`AlertState`, `ButtonState`, `TextState`, `ConfirmationDialogState`).
// Here those types are `ComposableArchitecture`'s; SwiftUI's bindings to them have no
// counterpart without SwiftUI.
//
// TCA's `ComposableArchitecture` re-exports this module, and on Apple's systems it re-exports
// SwiftUI and so Foundation: a feature file that imports only the architecture uses `Date`,
// `URL` and `URLSession`. This module re-exports Foundation likewise, with `URLSession` from
// `FoundationNetworking` where Foundation keeps it apart, so that such a file compiles unchanged
// once its views are cut away.

@_exported import Foundation

#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif
