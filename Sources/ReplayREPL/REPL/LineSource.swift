import Foundation

/// Where the REPL reads its commands from.
protocol LineSource: AnyObject {
  /// The next line, without its newline, or `nil` at the end of input (Ctrl-D).
  func readLine(prompt: String) -> String?
  /// Remembers a command for the history.
  func remember(_ line: String)
}

/// Reads commands from standard input when it is not a terminal: one per line, no prompt.
final class ScriptLineSource: LineSource {
  func readLine(prompt: String) -> String? {
    Swift.readLine(strippingNewline: true)
  }

  func remember(_ line: String) {}
}
