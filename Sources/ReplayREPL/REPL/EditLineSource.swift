import CLibEdit
import Foundation

/// Reads commands from a terminal with libedit: emacs (or vi, with `bind -v` in ~/.editrc) keys,
/// history kept in the user's home folder, TAB completion, and Ctrl-C to abandon a line.
final class EditLineSource: LineSource {
  private let editLine: OpaquePointer
  private let history: OpaquePointer
  private var event = HistEvent()
  private let historyPath: String?

  init?(historyPath: String?, completer: Completer) {
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
    // Ctrl-C at the prompt arrives as a key, not a signal, and abandons the line.
    replay_el_setty(editLine, "-isig")
    replay_el_add_function(editLine, "replay-abandon-line", "Abandon the line", abandonLine)
    replay_el_bind(editLine, "^C", "replay-abandon-line")
    replay_el_add_function(editLine, "replay-complete", "Complete the word", completeWord)
    replay_el_bind(editLine, "^I", "replay-complete")
    el_source(editLine, nil)
    hooks.completer = completer
  }

  deinit {
    if let historyPath { replay_history_save(self.history, &self.event, historyPath) }
    history_end(self.history)
    el_end(self.editLine)
  }

  func readLine(prompt: String) -> String? {
    promptBuffer.setPrompt(prompt)
    var count: Int32 = 0
    hooks.lineAbandoned = false
    guard let line = el_gets(self.editLine, &count), count > 0 else { return nil }
    if hooks.lineAbandoned { return "" }
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

/// What the key bindings reach: C callbacks cannot capture context.
private final class EditLineHooks: @unchecked Sendable {
  var completer: Completer?
  var lineAbandoned = false
}

private let hooks = EditLineHooks()

/// The text of the line up to the cursor.
private func textBeforeCursor(_ editLine: OpaquePointer) -> String {
  guard let info = el_line(editLine) else { return "" }
  let buffer = info.pointee.buffer!
  let length = info.pointee.cursor - buffer
  return String(
    decoding: UnsafeRawBufferPointer(start: buffer, count: max(0, length)), as: UTF8.self
  )
}

/// Ctrl-C: shows `^C`, ends the line, and has ``EditLineSource/readLine(prompt:)`` ignore it.
private func abandonLine(_ editLine: OpaquePointer?, _: Int32) -> UInt8 {
  guard let editLine, let info = el_line(editLine) else { return UInt8(CC_ERROR) }
  el_cursor(editLine, Int32(info.pointee.lastchar - info.pointee.cursor))
  el_insertstr(editLine, "^C")
  hooks.lineAbandoned = true
  // Shows the line with its ^C, then ends it as Return does.
  el_push(editLine, "\n")
  return UInt8(CC_REFRESH)
}

/// TAB: completes the word at the cursor, or lists what could complete it.
private func completeWord(_ editLine: OpaquePointer?, _: Int32) -> UInt8 {
  guard let editLine, let completer = hooks.completer else { return UInt8(CC_ERROR) }
  let completion = completer.complete(textBeforeCursor(editLine))
  let insertion = completion.insertion
  if !insertion.isEmpty {
    el_insertstr(editLine, insertion)
    return UInt8(CC_REFRESH)
  }
  guard completion.candidates.count > 1 else { return UInt8(CC_REFRESH_BEEP) }
  let listing = "\n" + columns(completion.candidates, width: terminalWidth()) + "\n"
  listing.utf8CString.withUnsafeBufferPointer { bytes in
    _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count - 1)
  }
  return UInt8(CC_REDISPLAY)
}

private func terminalWidth() -> Int {
  var size = winsize()
  guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
  return Int(size.ws_col)
}

/// Words in columns, as a shell lists completions.
func columns(_ words: [String], width: Int) -> String {
  let cell = (words.map(\.count).max() ?? 0) + 2
  let perLine = max(1, width / cell)
  var lines: [String] = []
  var index = 0
  while index < words.count {
    let row = words[index..<min(index + perLine, words.count)]
    lines.append(
      row.map { $0.padding(toLength: cell, withPad: " ", startingAt: 0) }.joined()
        .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    )
    index += perLine
  }
  return lines.joined(separator: "\n")
}
