// A contact's screen lives in a module of its own, as an app splits its features into modules:
// its tests link it alone.
@_exported import ExampleContactDetail
