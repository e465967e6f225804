import ActionLog

/// A request's answer when it fails: the message the editor shows.
struct DAPError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
