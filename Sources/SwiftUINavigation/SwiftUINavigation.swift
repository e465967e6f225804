// `import SwiftUINavigation`, as TCA's apps write it beside `import ComposableArchitecture` for
// the navigation data types (`AlertState`, `ButtonState`, `TextState`, `ConfirmationDialogState`).
// Here those types are `ComposableArchitecture`'s, which a file that imports this module imports
// too; SwiftUI's bindings to them have no counterpart without SwiftUI. The module exists so that
// such a file compiles unchanged: `ComposableArchitecture` depends on it, so an app that links
// the architecture can import it.
