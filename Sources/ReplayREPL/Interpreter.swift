import ActionLog
import Foundation
import TimeTravel

/// Runs REPL commands against a timeline and returns what to show.
final class Interpreter {
  let session: any TimelineSession
  let style: Style
  /// Whether the person asked to stop (Ctrl-C); polled by long commands.
  private let interrupted: () -> Bool
  private(set) var failed = false
  private(set) var isFinished = false

  /// A watchpoint or breakpoint, numbered as gdb does: from 1, never reused.
  struct Stop {
    enum Kind {
      case watch(StatePath)
      case breakpoint(ActionBreakpoint)
    }
    let number: Int
    let kind: Kind
  }
  private(set) var stops: [Stop] = []
  private var nextStopNumber = 1
  private var caseNamesSeen: Set<String>?

  init(session: any TimelineSession, style: Style = .plain, interrupted: @escaping () -> Bool = { false }) {
    self.session = session
    self.style = style
    self.interrupted = interrupted
  }

  /// A command's arguments: the words after its name, and the rest of the line as typed.
  struct Arguments {
    let words: [String]
    let text: String
    var first: String? { self.words.first }
  }

  /// A command: its names (the first is the one `help` shows), its arguments, and what it does.
  struct Command: Sendable {
    let names: [String]
    let usage: String
    let summary: String
    let run: @Sendable (Interpreter, Arguments) throws -> String
  }

  static let commands: [Command] = [
    Command(names: ["help", "h"], usage: "help [COMMAND]", summary: "List the commands, or explain one.") {
      interpreter, arguments in try interpreter.help(arguments.first)
    },
    Command(
      names: ["info", "i"], usage: "info [breakpoints]",
      summary: "Show the recording's feature, size and ending; or the watchpoints and breakpoints."
    ) { interpreter, arguments in try interpreter.info(arguments.first) },
    Command(
      names: ["list", "l"], usage: "list [FROM [TO]]",
      summary: "List actions: around the current step, or from a step."
    ) { interpreter, arguments in try interpreter.list(arguments.words) },
    Command(names: ["step", "s", "next", "n"], usage: "step [N]", summary: "Go N steps forward (1 by default).") {
      interpreter, arguments in
      try interpreter.move(by: try count(arguments.first), name: "step")
    },
    Command(
      names: ["back", "reverse-step", "rs"], usage: "back [N]", summary: "Go N steps back (1 by default)."
    ) { interpreter, arguments in
      try interpreter.move(by: -(try count(arguments.first)), name: "back")
    },
    Command(
      names: ["goto", "g"], usage: "goto STEP|+SECONDS",
      summary: "Go to a step (0 is the initial state), or to the last action by a time: goto +1.5s."
    ) { interpreter, arguments in try interpreter.goto(arguments.first) },
    Command(names: ["first"], usage: "first", summary: "Go to the initial state.") { interpreter, _ in
      try interpreter.move(to: 0)
    },
    Command(names: ["last"], usage: "last", summary: "Go to the last step.") { interpreter, _ in
      try interpreter.move(to: interpreter.session.count)
    },
    Command(names: ["when"], usage: "when", summary: "Say where you are: step and time.") { interpreter, _ in
      interpreter.when()
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
      guard step != 0 else { throw InterpreterError("Step 0 is the initial state: no action led to it.") }
      return try interpreter.session.dumpAction(at: step)
    },
    Command(
      names: ["diff", "d"], usage: "diff [FROM [TO]]",
      summary: "Show what changed: by the current step's action, or between two steps."
    ) { interpreter, arguments in try interpreter.diff(arguments.words) },
    Command(
      names: ["watch", "w"], usage: "watch PATH",
      summary: "Stop searches where the value at a path changes."
    ) { interpreter, arguments in try interpreter.watch(arguments.text) },
    Command(
      names: ["break", "b"], usage: "break ACTION",
      summary: "Stop searches at actions with this case name, or with this text in their dump."
    ) { interpreter, arguments in try interpreter.addBreakpoint(arguments.text) },
    Command(
      names: ["delete"], usage: "delete [N]", summary: "Delete watchpoint or breakpoint N, or all of them."
    ) { interpreter, arguments in try interpreter.delete(arguments.first) },
    Command(
      names: ["continue", "c"], usage: "continue",
      summary: "Go forward to the next step a watchpoint or breakpoint stops at."
    ) { interpreter, _ in try interpreter.search(forward: true) },
    Command(
      names: ["reverse-continue", "rc"], usage: "reverse-continue",
      summary: "Go back to the last step a watchpoint or breakpoint stops at: what last changed it."
    ) { interpreter, _ in try interpreter.search(forward: false) },
    Command(
      names: ["find", "f"], usage: "find TEXT",
      summary: "List the steps whose action has this case name or text."
    ) { interpreter, arguments in try interpreter.find(arguments.text) },
    Command(
      names: ["verify"], usage: "verify",
      summary: "Re-run the recording with today's reducer and report the first step that differs."
    ) { interpreter, _ in try interpreter.verify() },
    Command(
      names: ["send"], usage: "send JSON",
      summary: "Try an action at this step, on a diversion: send {\"incrementButtonTapped\":{}}."
    ) { interpreter, arguments in try interpreter.send(arguments.text) },
    Command(
      names: ["discard"], usage: "discard", summary: "Leave the diversion and return to the recording."
    ) { interpreter, _ in interpreter.discard() },
    Command(names: ["quit", "q", "exit"], usage: "quit", summary: "Leave (Ctrl-D too).") { interpreter, _ in
      interpreter.isFinished = true
      return ""
    },
  ]

  /// Runs one line; returns the text to show.
  func run(_ line: String) -> String {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard let name = trimmed.split(whereSeparator: \.isWhitespace).first.map(String.init) else {
      return ""
    }
    guard let command = Self.command(named: name) else {
      self.failed = true
      let suggestion = Self.nearest(to: name).map { " Did you mean \"\($0)\"?" } ?? ""
      return self.style.error("Unknown command \"\(name)\".\(suggestion) Type \"help\" for the commands.")
    }
    let text = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
    let arguments = Arguments(words: text.split(whereSeparator: \.isWhitespace).map(String.init), text: text)
    do {
      return try command.run(self, arguments)
    } catch {
      self.failed = true
      return self.style.error("\(error)")
    }
  }

  static func command(named name: String) -> Command? {
    Self.commands.first { $0.names.contains(name) }
  }

  /// The prompt: `(replay 12/139 +4.200s) `.
  var prompt: String {
    let position = self.session.position
    let diverted = self.session.divertedAt == nil ? "" : ", diverted"
    return "(replay \(position)/\(self.session.count) +\(seconds(self.time(of: position)))\(diverted)) "
  }

  /// The completions for the text before the cursor.
  var completer: Completer {
    Completer(
      commands: Self.commands,
      caseNames: { [unowned self] in self.caseNames() },
      state: { [unowned self] in self.session.currentState }
    )
  }

  /// The action case names in the recording (its first 10,000 actions), found once.
  func caseNames() -> Set<String> {
    if let names = self.caseNamesSeen { return names }
    let names = (try? self.session.actionCaseNames(limit: 10_000)) ?? []
    self.caseNamesSeen = names
    return names
  }

  private func time(of step: Int) -> Duration {
    step == 0 ? .zero : self.session.recording.time(ofAction: step)
  }

  // MARK: - Moving

  private func move(to step: Int) throws -> String {
    try self.session.goto(step)
    return self.describePosition()
  }

  private func move(by steps: Int, name: String) throws -> String {
    let position = self.session.position
    let target = position + steps
    guard target >= 0 else {
      throw InterpreterError(
        "\(name) \(-steps) goes past the initial state: you are at step \(position) (\"first\" goes to 0)."
      )
    }
    guard target <= self.session.count else {
      throw InterpreterError(
        """
        \(name) \(steps) goes past the last step: you are at step \(position) of \(self.session.count) \
        ("last" goes there).
        """
      )
    }
    return try self.move(to: target)
  }

  private func goto(_ argument: String?) throws -> String {
    guard let argument else {
      throw InterpreterError("goto needs a step, such as \"goto 12\", or a time, such as \"goto +1.5s\".")
    }
    if let step = Int(argument) { return try self.move(to: step) }
    var text = Substring(argument)
    if text.hasPrefix("+") { text = text.dropFirst() }
    if text.hasSuffix("s") { text = text.dropLast() }
    guard argument.hasPrefix("+") || argument.hasSuffix("s"), let value = Double(text), value >= 0,
      value.isFinite
    else {
      throw InterpreterError(
        "\"\(argument)\" is neither a step nor a time: write \"goto 12\" or \"goto +1.5s\"."
      )
    }
    let recording = self.session.recording
    return try self.move(to: recording.action(atTime: .milliseconds(Int64((value * 1_000).rounded()))))
  }

  func describePosition() -> String {
    let position = self.session.position
    let step = self.style.emphasis("\(position)/\(self.session.count)")
    guard position > 0 else { return "\(step)  the initial state" }
    let recording = self.session.recording
    let origin = originText(recording.origin(ofAction: position))
    let action = (try? self.session.dumpAction(at: position)).map(oneLine) ?? "?"
    return "\(step)  +\(seconds(recording.time(ofAction: position)))  \(origin)  \(action)"
  }

  /// A step as `list` shows it: step, time, origin, action on one line.
  private func line(for step: Int, upTo last: Int) -> String {
    let action = (try? self.session.dumpAction(at: step)) ?? "?"
    let recording = self.session.recording
    return ReplayCommand.List.line(
      step: step, widths: .init(last: last, in: recording), recording: recording, action: action
    )
  }

  private func when() -> String {
    let position = self.session.position
    let recording = self.session.recording
    var text = """
      Step \(position) of \(self.session.count), +\(seconds(self.time(of: position))) into a \
      recording of \(seconds(recording.duration)) (\(recording.header.feature), started \
      \(iso8601(recording.header.startedAt))).
      """
    if let diversion = self.session.divertedAt {
      text += "\nOn a diversion from step \(diversion.step): \(diversion.sent) action\(diversion.sent == 1 ? "" : "s") sent."
    }
    return text
  }

  // MARK: - Looking

  private func info(_ topic: String?) throws -> String {
    switch topic {
    case nil:
      let recording = self.session.recording
      var text = """
        \(recording.header.feature): \(recording.count) actions over \(seconds(recording.duration)), \
        \(counted(recording.checkpoints.count, "checkpoint")), \(recording.ending)
        """
      if let redacted = redactionSummary(recording.header.redactions) {
        text += "\nRedacted at record time: \(redacted)."
      }
      if let readOnly = self.session as? ReadOnlySession {
        text += "\nRead-only: \(readOnly.reason)."
      }
      return text
    case "breakpoints"?, "b"?, "break"?, "watchpoints"?, "watch"?:
      guard !self.stops.isEmpty else {
        return "No watchpoints or breakpoints. Add one with \"watch PATH\" or \"break ACTION\"."
      }
      return (["Num  Type        What"] + self.stops.map { stop in
        let number = String(stop.number).padding(toLength: 5, withPad: " ", startingAt: 0)
        switch stop.kind {
        case let .watch(path): return "\(number)watchpoint  \(path)"
        case let .breakpoint(breakpoint): return "\(number)breakpoint  \(breakpoint)"
        }
      }).joined(separator: "\n")
    case let topic?:
      throw InterpreterError("\"info \(topic)\" is not a topic: try \"info\" or \"info breakpoints\".")
    }
  }

  private func list(_ words: [String]) throws -> String {
    let count = self.session.count
    guard count > 0 else { return "(No actions)" }
    let position = self.session.position
    let from: Int
    let to: Int
    switch words.count {
    case 0:
      from = max(1, min(position - 4, count - 9))
      to = min(count, from + 9)
    case 1:
      from = try number(words[0])
      to = min(count, from + 9)
    default:
      from = try number(words[0])
      to = try number(words[1])
    }
    for step in [from, to] where !(1...count).contains(step) {
      throw InterpreterError("There is no action \(step): the recording has actions 1 to \(count).")
    }
    guard from <= to else { throw InterpreterError("\(from) comes after \(to).") }
    return (from...to).map { step in
      (step == position ? "→ " : "  ") + self.line(for: step, upTo: to)
    }.joined(separator: "\n")
  }

  private func diff(_ words: [String]) throws -> String {
    let position = self.session.position
    let changes: String?
    switch words.count {
    case 0 where self.session.divertedAt != nil:
      changes = try self.session.diversionDiff()
    case 0:
      changes = try self.session.diff(from: max(0, position - 1), to: position)
    case 1:
      changes = try self.session.diff(from: try number(words[0]), to: position)
    default:
      changes = try self.session.diff(from: try number(words[0]), to: try number(words[1]))
    }
    return changes.map(self.style.diff) ?? "(No state changes)"
  }

  // MARK: - Searching

  private func watch(_ text: String) throws -> String {
    guard !text.isEmpty else { throw InterpreterError("watch needs a state path, such as \"watch todos[0].isComplete\".") }
    guard self.session.isReplayable else {
      let reason = (self.session as? ReadOnlySession)?.reason ?? "this recording cannot be re-run"
      throw InterpreterError("A watchpoint re-runs the reducer, but \(reason).")
    }
    let path = try StatePath(text)
    let number = self.addStop(.watch(path))
    let now = (try? self.session.dumpState(at: path)).map { "now \(oneLine($0))" } ?? "absent at this step"
    return "Watchpoint \(number): \(path) (\(now))"
  }

  private func addBreakpoint(_ text: String) throws -> String {
    guard !text.isEmpty else {
      throw InterpreterError("break needs an action case name or text, such as \"break incrementButtonTapped\".")
    }
    let number = self.addStop(.breakpoint(ActionBreakpoint(text)))
    let known = self.caseNames().contains(text)
    return "Breakpoint \(number): \(text)"
      + (known ? "" : " (no action case has this name: it stops at actions whose dump contains it)")
  }

  private func addStop(_ kind: Stop.Kind) -> Int {
    let number = self.nextStopNumber
    self.nextStopNumber += 1
    self.stops.append(Stop(number: number, kind: kind))
    return number
  }

  private func delete(_ argument: String?) throws -> String {
    guard let argument else {
      guard !self.stops.isEmpty else { return "No watchpoints or breakpoints to delete." }
      let count = self.stops.count
      self.stops.removeAll()
      return count == 1 ? "Deleted the watchpoint or breakpoint." : "Deleted all \(count) watchpoints and breakpoints."
    }
    guard let number = Int(argument), let index = self.stops.firstIndex(where: { $0.number == number }) else {
      let numbers = self.stops.map { String($0.number) }.joined(separator: ", ")
      throw InterpreterError(
        "There is no watchpoint or breakpoint \"\(argument)\""
          + (numbers.isEmpty ? "." : " (the numbers are \(numbers): see \"info breakpoints\").")
      )
    }
    self.stops.remove(at: index)
    return "Deleted \(number)."
  }

  private func search(forward: Bool) throws -> String {
    guard !self.stops.isEmpty else {
      throw InterpreterError("Nothing to stop at: add a watchpoint (\"watch PATH\") or a breakpoint (\"break ACTION\").")
    }
    var watches: [StatePath] = []
    var breakpoints: [ActionBreakpoint] = []
    for stop in self.stops {
      switch stop.kind {
      case let .watch(path): watches.append(path)
      case let .breakpoint(breakpoint): breakpoints.append(breakpoint)
      }
    }
    var wasInterrupted = false
    let found = try self.session.search(
      forward: forward, watching: watches, breakpoints: breakpoints
    ) {
      wasInterrupted = wasInterrupted || self.interrupted()
      return wasInterrupted
    }
    let position = self.session.position
    guard let found else {
      if wasInterrupted { return "\nInterrupted: still at step \(position)." }
      return "No \(forward ? "later" : "earlier") step changes a watched value or matches a breakpoint: still at step \(position)."
    }
    let reasons = found.stops.map { stop -> String in
      switch stop {
      case let .watch(path, old, new):
        let number = self.stops.first { if case .watch(path) = $0.kind { true } else { false } }?.number ?? 0
        let heading = self.style.heading("Watchpoint \(number): \(path)")
        if !old.contains("\n"), !new.contains("\n") { return "\(heading)\n  \(old) → \(new)" }
        return "\(heading)\n  Old:\n\(indented(old))\n  New:\n\(indented(new))"
      case let .breakpoint(breakpoint):
        let number = self.stops.first { if case .breakpoint(breakpoint) = $0.kind { true } else { false } }?.number ?? 0
        return self.style.heading("Breakpoint \(number): \(breakpoint)")
      }
    }
    return (reasons + [self.describePosition()]).joined(separator: "\n")
  }

  private func find(_ text: String) throws -> String {
    guard !text.isEmpty else { throw InterpreterError("find needs text, such as \"find checkBoxToggled\".") }
    let breakpoint = ActionBreakpoint(text)
    var matches: [Int] = []
    for step in stride(from: 1, through: self.session.count, by: 1) {
      if step % 256 == 0, self.interrupted() {
        return self.findings(matches, text: text)
          + "\n\nInterrupted at step \(step): the steps after it were not searched."
      }
      if try self.session.action(at: step, matches: breakpoint) { matches.append(step) }
    }
    return self.findings(matches, text: text)
  }

  private func findings(_ matches: [Int], text: String) -> String {
    guard !matches.isEmpty else { return "No action has \"\(text)\"." }
    let shown = 20
    let last = matches.prefix(shown).last ?? 1
    var lines = matches.prefix(shown).map { self.line(for: $0, upTo: last) }
    if matches.count > shown {
      lines.append("… and \(matches.count - shown) more, up to step \(matches.last!): \"list FROM TO\" shows them.")
    }
    lines.append("\(matches.count) action\(matches.count == 1 ? "" : "s") found.")
    return lines.joined(separator: "\n")
  }

  private func verify() throws -> String {
    var wasInterrupted = false
    let divergence = try self.session.verifyRecording {
      wasInterrupted = wasInterrupted || self.interrupted()
      return wasInterrupted
    }
    if wasInterrupted { return "\nInterrupted: the recording was not verified to its end." }
    guard let divergence else {
      let recording = self.session.recording
      return """
        Today's reducer reproduces \(everyCheckpoint(recording.checkpoints.count)) of \
        \(recording.count) actions.
        """
    }
    self.failed = true
    return self.style.diff(divergence.description) + "\n\"goto \(divergence.step)\" stands there."
  }

  // MARK: - Diversions

  private func send(_ json: String) throws -> String {
    guard !json.isEmpty else {
      throw InterpreterError(
        "send needs an action as JSON, as the recording holds it (see \"action\"): send {\"incrementButtonTapped\":{}}"
      )
    }
    let wasDiverted = self.session.divertedAt != nil
    let result: (diff: String?, reads: [String])
    do {
      result = try self.session.send(json: json)
    } catch let error as ActionJSONError {
      let examples = self.recordedActionShapes()
      throw InterpreterError(
        "\(error)" + (examples.isEmpty ? "" : " The recording's actions look like: \(examples.joined(separator: ", "))")
      )
    }
    var lines = [result.diff.map(self.style.diff) ?? "(No state changes)"]
    if !result.reads.isEmpty {
      lines.append(
        """
        It read \(result.reads.joined(separator: ", ")): nothing was recorded for this action, \
        so stand-ins answered (seeded random UUIDs and numbers, the date 2001-01-01).
        """
      )
    }
    if !wasDiverted, let diversion = self.session.divertedAt {
      lines.append(
        "On a diversion from step \(diversion.step): the recording is unchanged. \"discard\" returns to it."
      )
    }
    return lines.joined(separator: "\n")
  }

  /// One recorded action's JSON per top-level case, from the first actions: what `send` takes.
  private func recordedActionShapes() -> [String] {
    var shapes: [String: String] = [:]
    for step in stride(from: 1, through: min(self.session.count, 2_000), by: 1) {
      guard shapes.count < 6, let json = try? self.session.recording.actionJSON(step),
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
        let key = object.keys.first, shapes[key] == nil
      else { continue }
      shapes[key] = json.count <= 80 ? json : "{\"\(key)\":…}"
    }
    return shapes.keys.sorted().map { shapes[$0]! }
  }

  private func discard() -> String {
    guard let diversion = self.session.divertedAt else { return "Not on a diversion: nothing to discard." }
    self.session.discardDiversion()
    return "Discarded \(diversion.sent) action\(diversion.sent == 1 ? "" : "s"): back on the recording at step \(diversion.step)."
  }

  // MARK: - Help

  private func help(_ name: String?) throws -> String {
    if let name {
      guard let command = Self.command(named: name) else {
        let suggestion = Self.nearest(to: name).map { " Did you mean \"\($0)\"?" } ?? ""
        throw InterpreterError("There is no command \"\(name)\".\(suggestion) Type \"help\" for the commands.")
      }
      let aliases = command.names.dropFirst()
      return "\(command.usage)\n  \(command.summary)"
        + (aliases.isEmpty ? "" : "\n  Also: \(aliases.joined(separator: ", "))")
    }
    return Self.commandTable + "\n\nTAB completes commands, state paths and action names; Ctrl-C stops a search; Ctrl-D quits."
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

private func count(_ text: String?) throws -> Int {
  guard let text else { return 1 }
  guard let value = Int(text), value > 0 else {
    throw InterpreterError("\"\(text)\" is not a number of steps (a whole number from 1).")
  }
  return value
}

/// Text indented by four spaces, line by line.
private func indented(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
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
