import Foundation

/// How the REPL colours what it shows: only on a terminal, and never when `NO_COLOR` is set
/// (https://no-color.org) or the terminal is `dumb`.
struct Style: Sendable {
  let isEnabled: Bool

  /// The style for standard output in this process's environment.
  static func forStandardOutput(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Style {
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    return Style(
      isEnabled: isatty(STDOUT_FILENO) != 0 && !noColor && environment["TERM"] != "dumb"
    )
  }

  static let plain = Style(isEnabled: false)

  private func paint(_ text: String, _ code: String) -> String {
    self.isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func error(_ text: String) -> String { self.paint(text, "31") }
  func heading(_ text: String) -> String { self.paint(text, "1;33") }
  func emphasis(_ text: String) -> String { self.paint(text, "1") }
  func pass(_ text: String) -> String { self.paint(text, "32") }
  func dim(_ text: String) -> String { self.paint(text, "2") }

  /// Colours a customDump diff: removed lines red, added lines green.
  func diff(_ text: String) -> String {
    guard self.isEnabled else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let body = line.drop { $0 == " " }
      if body.hasPrefix("- ") || body == "-" { return self.paint(String(line), "31") }
      if body.hasPrefix("+ ") || body == "+" { return self.paint(String(line), "32") }
      return String(line)
    }.joined(separator: "\n")
  }
}
