import ActionLog
import Foundation
import TimeTravel

/// Runs REPL commands against a timeline and returns what to show.
final class Interpreter {
  let session: any TimelineSession
  private(set) var failed = false
  private(set) var isFinished = false

  init(session: any TimelineSession) {
    self.session = session
  }

  /// A command: its names (the first is the one `help` shows), its arguments, and what it does.
  struct Command: Sendable {
    let names: [String]
    let usage: String
    let summary: String
    let run: @Sendable (Interpreter, [String]) throws -> String
  }

  static let commands: [Command] = [
    Command(names: ["help", "h"], usage: "help [COMMAND]", summary: "List the commands, or explain one.") {
      interpreter, arguments in interpreter.help(arguments.first)
    },
    Command(names: ["info"], usage: "info", summary: "Show the recording's feature, size and ending.") {
      interpreter, _ in interpreter.info()
    },
    Command(names: ["step", "s"], usage: "step [N]", summary: "Go N steps forward (1 by default).") {
      interpreter, arguments in
      try interpreter.move(to: interpreter.session.position + (try count(arguments)))
    },
    Command(
      names: ["back", "reverse-step", "rs"], usage: "back [N]", summary: "Go N steps back (1 by default)."
    ) { interpreter, arguments in
      try interpreter.move(to: interpreter.session.position - (try count(arguments)))
    },
    Command(names: ["goto", "g"], usage: "goto STEP", summary: "Go to a step (0 is the initial state).") {
      interpreter, arguments in
      guard let text = arguments.first, let step = Int(text) else {
        throw InterpreterError("goto needs a step number, such as \"goto 12\".")
      }
      return try interpreter.move(to: step)
    },
    Command(names: ["first"], usage: "first", summary: "Go to the initial state.") { interpreter, _ in
      try interpreter.move(to: 0)
    },
    Command(names: ["last"], usage: "last", summary: "Go to the last step.") { interpreter, _ in
      try interpreter.move(to: interpreter.session.count)
    },
    Command(
      names: ["print", "p"], usage: "print [PATH]",
      summary: "Show the state, or the value at a path such as todos[0].description."
    ) { interpreter, arguments in
      let path = try arguments.first.map(StatePath.init)
      return try interpreter.session.dumpState(at: path)
    },
    Command(
      names: ["action", "a"], usage: "action [STEP]",
      summary: "Show the action that led to a step (the current one by default)."
    ) { interpreter, arguments in
      let step = try arguments.first.map { try number($0) } ?? interpreter.session.position
      guard step >= 1 else { throw InterpreterError("Step 0 is the initial state: no action led to it.") }
      return try interpreter.session.dumpAction(at: step)
    },
    Command(
      names: ["diff", "d"], usage: "diff [FROM [TO]]",
      summary: "Show what changed: by the current step's action, or between two steps."
    ) { interpreter, arguments in
      let position = interpreter.session.position
      let (from, to): (Int, Int)
      switch arguments.count {
      case 0: (from, to) = (max(0, position - 1), position)
      case 1: (from, to) = (try number(arguments[0]), position)
      default: (from, to) = (try number(arguments[0]), try number(arguments[1]))
      }
      return try interpreter.session.diff(from: from, to: to) ?? "(No state changes)"
    },
    Command(names: ["quit", "q", "exit"], usage: "quit", summary: "Leave (Ctrl-D too).") { interpreter, _ in
      interpreter.isFinished = true
      return ""
    },
  ]

  /// Runs one line; returns the text to show.
  func run(_ line: String) -> String {
    let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let name = words.first else { return "" }
    guard let command = Self.commands.first(where: { $0.names.contains(name) }) else {
      self.failed = true
      let suggestion = Self.nearest(to: name).map { " Did you mean \"\($0)\"?" } ?? ""
      return "Unknown command \"\(name)\".\(suggestion) Type \"help\" for the commands."
    }
    do {
      return try command.run(self, Array(words.dropFirst()))
    } catch {
      self.failed = true
      return "\(error)"
    }
  }

  /// The prompt: `(replay 12/139 +4.200s) `.
  var prompt: String {
    let position = self.session.position
    let time = position == 0 ? Duration.zero : self.session.recording.time(ofAction: position)
    return "(replay \(position)/\(self.session.count) +\(seconds(time))) "
  }

  // MARK: - Commands

  private func move(to step: Int) throws -> String {
    try self.session.goto(step)
    return self.describePosition()
  }

  func describePosition() -> String {
    let position = self.session.position
    guard position > 0 else { return "0/\(self.session.count)  the initial state" }
    let recording = self.session.recording
    let origin = originText(recording.origin(ofAction: position))
    let action = (try? self.session.dumpAction(at: position)).map(oneLine) ?? "?"
    return "\(position)/\(self.session.count)  +\(seconds(recording.time(ofAction: position)))  \(origin)  \(action)"
  }

  private func info() -> String {
    let recording = self.session.recording
    return """
      \(recording.header.feature): \(recording.count) actions over \(seconds(recording.duration)), \
      \(recording.checkpoints.count) checkpoints, \(recording.ending)
      """
  }

  private func help(_ name: String?) -> String {
    if let name {
      guard let command = Self.commands.first(where: { $0.names.contains(name) }) else {
        self.failed = true
        return "There is no command \"\(name)\". Type \"help\" for the commands."
      }
      let aliases = command.names.dropFirst()
      return "\(command.usage)\n  \(command.summary)"
        + (aliases.isEmpty ? "" : "\n  Also: \(aliases.joined(separator: ", "))")
    }
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
    return Self.commands.first { $0.names.contains(best.0) }?.names.first
  }
}

struct InterpreterError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

private func number(_ text: String) throws -> Int {
  guard let value = Int(text) else {
    throw InterpreterError("\"\(text)\" is not a step number.")
  }
  return value
}

private func count(_ arguments: [String]) throws -> Int {
  guard let text = arguments.first else { return 1 }
  guard let value = Int(text), value > 0 else {
    throw InterpreterError("\"\(text)\" is not a number of steps (a whole number from 1).")
  }
  return value
}

/// The Levenshtein distance between two strings.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}
