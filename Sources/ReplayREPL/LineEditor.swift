import CLibEdit
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

/// Reads commands from a terminal with libedit: emacs (or vi, with `bind -v` in ~/.editrc) keys,
/// and history kept in the user's home folder.
final class EditLineSource: LineSource {
  private let editLine: OpaquePointer
  private let history: OpaquePointer
  private var event = HistEvent()
  private let historyPath: String?

  init?(historyPath: String?) {
    // NB: Streams of their own over the standard descriptors: the C globals are shared mutable
    // state to Swift 6.
    guard let input = fdopen(STDIN_FILENO, "r"), let output = fdopen(STDOUT_FILENO, "w"),
      let errors = fdopen(STDERR_FILENO, "w"),
      let editLine = el_init(CommandLine.arguments.first ?? "replay", input, output, errors),
      let history = history_init()
    else { return nil }
    self.editLine = editLine
    self.history = history
    self.historyPath = historyPath
    replay_history_set_size(history, &self.event, 1_000)
    replay_history_set_unique(history, &self.event, 1)
    if let historyPath { replay_history_load(history, &self.event, historyPath) }
    replay_el_set_editor(editLine, "emacs")
    replay_el_set_history(editLine, history)
    replay_el_set_signal(editLine, 1)
    replay_el_set_prompt(editLine, editLinePrompt)
    el_source(editLine, nil)
  }

  deinit {
    if let historyPath { replay_history_save(self.history, &self.event, historyPath) }
    history_end(self.history)
    el_end(self.editLine)
  }

  func readLine(prompt: String) -> String? {
    promptBuffer.setPrompt(prompt)
    var count: Int32 = 0
    guard let line = el_gets(self.editLine, &count), count > 0 else { return nil }
    var text = String(cString: line)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  func remember(_ line: String) {
    replay_history_enter(self.history, &self.event, line)
    if let historyPath { replay_history_save(self.history, &self.event, historyPath) }
  }
}

/// The prompt libedit shows: a C callback cannot capture context, so it reads this buffer.
private final class PromptBuffer: @unchecked Sendable {
  private(set) var pointer: UnsafeMutablePointer<CChar> = strdup("")

  func setPrompt(_ prompt: String) {
    free(self.pointer)
    self.pointer = strdup(prompt)
  }
}

private let promptBuffer = PromptBuffer()

private func editLinePrompt(_: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
  promptBuffer.pointer
}
