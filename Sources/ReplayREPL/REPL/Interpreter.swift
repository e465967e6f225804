import ActionLog
import Foundation
import TimeTravel

/// Runs REPL commands against a timeline and returns what to show.
///
/// Each command lives in a file of its own under `Commands/`, as a ``Command`` and the methods it
/// runs; ``commands`` lists them in the order `help` shows them.
final class Interpreter {
  /// The debugging session the commands drive, which the debugger's `evaluate` may share.
  let debug: DebugSession
  /// The session commands work on: the recording's, or a child's cut from it (`scope`).
  var session: any TimelineSession { self.debug.timeline }
  /// The features this `replay` can re-run.
  var catalog: FeatureCatalog { self.debug.catalog }
  /// The sessions `scope` narrowed from, innermost last.
  var scopes: [DebugSession.Scoped] { self.debug.scopes }
  let style: Style
  /// Whether the person asked to stop (Ctrl-C); polled by long commands.
  let interrupted: () -> Bool
  /// Shows a line that says a long command is at work (`nil` takes it away again); at a
  /// terminal only.
  let notice: ((String?) -> Void)?
  /// Whether a command failed.
  var failed = false
  private(set) var isFinished = false

  typealias Stop = DebugSession.Stop
  /// The watchpoints and breakpoints.
  var stops: [Stop] { self.debug.stops }
  var caseNamesSeen: Set<String>?
  var caseLabelsSeen: [String: Set<String>]?
  /// The recording's changes of shared values that its reducers did not make.
  lazy var sharedChanges = SharedValueChanges(self.session.recording)

  /// An interpreter over a debugging session of its own.
  convenience init(
    session: any TimelineSession, catalog: FeatureCatalog, style: Style = .plain,
    interrupted: @escaping () -> Bool = { false },
    notice: ((String?) -> Void)? = nil
  ) {
    self.init(
      debug: DebugSession(session, catalog: catalog), style: style, interrupted: interrupted,
      notice: notice)
  }

  /// An interpreter over `debug`, which another front end may drive too.
  init(
    debug: DebugSession, style: Style = .plain,
    interrupted: @escaping () -> Bool = { false },
    notice: ((String?) -> Void)? = nil
  ) {
    self.debug = debug
    self.style = style
    self.interrupted = interrupted
    self.notice = notice
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

  /// The commands, in the order `help` lists them.
  static let commands: [Command] = [
    .help, .info, .list, .step, .back, .goto, .first, .last, .when, .print, .action, .diff,
    .watch, .break, .delete, .continue, .reverseContinue, .find, .effects, .skip, .verify, .send,
    .discard, .scope, .quit,
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
      return self.style.error(
        "Unknown command \"\(name)\".\(suggestion) Type \"help\" for the commands."
      )
    }
    let text = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
    let arguments = Arguments(
      words: text.split(whereSeparator: \.isWhitespace).map(String.init), text: text
    )
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

  /// Ends the session after this command.
  func finish() {
    self.isFinished = true
  }

  /// The prompt: `(replay 12/139 +4.200s) `.
  var prompt: String {
    let position = self.session.position
    let diverted = self.session.divertedAt == nil ? "" : ", diverted"
    let time = seconds(self.time(of: position))
    let scope = self.scopes.last.map { "\($0.child.path) " } ?? ""
    return "(replay \(scope)\(position)/\(self.session.count) +\(time)\(diverted)) "
  }

  /// The completions for the text before the cursor.
  var completer: Completer {
    Completer(
      commands: Self.commands,
      caseNames: { [unowned self] in self.caseNames() },
      state: { [unowned self] in self.session.currentState },
      caseLabels: { [unowned self] in self.caseLabels() }
    )
  }

  /// The labels of each action case's associated values, read from the recording's actions
  /// (its first 2,000) as the REPL prints them, found once.
  func caseLabels() -> [String: Set<String>] {
    if let labels = self.caseLabelsSeen { return labels }
    var labels: [String: Set<String>] = [:]
    func visit(_ value: SwiftValue) {
      switch value {
      case let .enumCase(name, arguments?), let .call(name, arguments):
        // NB: A type by its last component, as the completer finds it before `(`.
        let key = name.split(separator: ".").last.map(String.init) ?? name
        for argument in arguments {
          if let label = argument.label { labels[key, default: []].insert(label) }
          visit(argument.value)
        }
      case let .array(elements): elements.forEach(visit)
      default: break
      }
    }
    for step in stride(from: 1, through: min(2_000, self.session.count), by: 1) {
      guard let text = try? self.session.actionText(at: step),
        let value = try? SwiftValueParser.parse(oneLine(text))
      else { continue }
      visit(value)
    }
    self.caseLabelsSeen = labels
    return labels
  }

  /// The action case names in the recording (its first 10,000 actions), found once.
  func caseNames() -> Set<String> {
    if let names = self.caseNamesSeen { return names }
    let names = (try? self.session.actionCaseNames(limit: 10_000)) ?? []
    self.caseNamesSeen = names
    return names
  }

  func time(of step: Int) -> Duration {
    step == 0 ? .zero : self.session.recording.time(ofAction: step)
  }

  func describePosition() -> String {
    let position = self.session.position
    let step = self.style.emphasis("\(position)/\(self.session.count)")
    guard position > 0 else { return "\(step)  the initial state" }
    let recording = self.session.recording
    let origin = originText(
      recording.origin(ofAction: position), site: recording.site(ofAction: position))
    let action = (try? self.session.actionText(at: position)).map(oneLine) ?? "?"
    return
      (["\(step)  +\(seconds(recording.time(ofAction: position)))  \(origin)  \(action)"]
      + self.sharedChanges.lines(before: position, style: self.style)
      + Self.notes(after: position, in: recording)).joined(separator: "\n")
  }

  /// The notes written after action `seq` (a test's failed assertion, `✘ …`), indented under
  /// the step.
  static func notes(after seq: Int, in recording: Recording) -> [String] {
    recording.warnings.flatMap { warning -> [String] in
      guard case let .note(noteSeq, text) = warning, noteSeq == seq else { return [] }
      return text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
    }
  }

  /// A step as `list` shows it: step, time, origin, action on one line.
  func line(for step: Int, upTo last: Int) -> String {
    let action = (try? self.session.actionText(at: step)) ?? "?"
    let recording = self.session.recording
    return ActionLine.text(
      step: step, widths: .init(last: last, in: recording), recording: recording, action: action
    )
  }
}
