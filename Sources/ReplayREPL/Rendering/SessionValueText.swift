import CustomDump
import TimeTravel

extension SessionValue {
  /// The value as the REPL and the CLI show it: `customDump`'s form, or the recorded JSON.
  var text: String {
    switch self {
    case .typed(let value): String(customDumping: value)
    case .json(let text): text
    }
  }
}

extension TimelineSession {
  /// The action that led to `step`, as text.
  func actionText(at step: Int) throws -> String {
    try self.actionValue(at: step).text
  }
}
