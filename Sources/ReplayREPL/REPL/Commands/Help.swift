import Foundation

// `help [COMMAND]`: the commands, or one explained, with a suggestion for a misspelt name.
extension Interpreter.Command {
  /// `help [COMMAND]`.
  static let help = Self(
    names: ["help", "h"], usage: "help [COMMAND]", summary: "List the commands, or explain one."
  ) { interpreter, arguments in try interpreter.help(arguments.first) }
}

extension Interpreter {
  func help(_ name: String?) throws -> String {
    if let name {
      guard let command = Self.command(named: name) else {
        let suggestion = Self.nearest(to: name).map { " Did you mean \"\($0)\"?" } ?? ""
        throw InterpreterError(
          "There is no command \"\(name)\".\(suggestion) Type \"help\" for the commands."
        )
      }
      let aliases = command.names.dropFirst()
      return "\(command.usage)\n  \(command.summary)"
        + (aliases.isEmpty ? "" : "\n  Also: \(aliases.joined(separator: ", "))")
    }
    return Self.commandTable + """


      TAB completes commands, state paths and action names; Ctrl-C stops a search; Ctrl-D quits.
      """
  }

  /// Every command with its usage and summary, one per line.
  static var commandTable: String {
    let width = Self.commands.map(\.usage.count).max() ?? 0
    return Self.commands
      .map { $0.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
      .joined(separator: "\n")
  }

  /// The command name closest to `name`, if one is close.
  static func nearest(to name: String) -> String? {
    let candidates = Self.commands.flatMap(\.names)
    let scored = candidates.map { ($0, editDistance($0, name)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 2) else {
      return nil
    }
    return Self.command(named: best.0)?.names.first
  }
}
