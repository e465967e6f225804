import ActionLog
import CLibEdit
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay FILE`: step through a recording interactively, or run commands from standard input.
  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "open",
      abstract: "Step through a recording (the default: replay FILE).",
      discussion: """
        On a terminal, commands are read with line editing and history (kept in \
        ~/.replay_history); TAB completes commands, state paths and action names; Ctrl-C \
        abandons a line or stops a long search; Ctrl-D quits. Otherwise they are read from \
        standard input, one per line, and replay exits with 1 if any failed. Colours only on a \
        terminal, and never with NO_COLOR set. Type "help" for the commands.

        A recording of a feature this replay does not have opens read-only: the states \
        recorded at checkpoints, and the actions as JSON.

        Examples:
          $ replay Recordings/todos.actionlog
          $ printf 'goto 12\\nprint todos[0]\\n' | replay Recordings/todos.actionlog
        """
    )

    @OptionGroup var recording: RecordingOptions

    func run() throws {
      try self.reportingFailures {
        let recording = try self.recording.open()
        let isTerminal = isatty(STDIN_FILENO) != 0
        for note in notes(on: recording) {
          FileHandle.standardError.write(Data("\(note)\n".utf8))
        }
        let session = openSession(recording, ReplayCommand.catalog)
        if let readOnly = session as? ReadOnlySession {
          FileHandle.standardError.write(Data("note: \(readOnly.note)\n".utf8))
        }
        if isTerminal { _ = replay_install_interrupt_handler() }
        let interpreter = Interpreter(
          session: session, catalog: ReplayCommand.catalog,
          style: isTerminal ? .forStandardOutput() : .plain,
          interrupted: { replay_take_interrupt() != 0 },
          notice: isTerminal
            ? { text in
              FileHandle.standardError.write(Data((text.map { "\r\($0)" } ?? "\r\u{1B}[K").utf8))
            } : nil
        )
        let home = ProcessInfo.processInfo.environment["HOME"]
        let source: any LineSource =
          (isTerminal
            ? EditLineSource(
              historyPath: home.map { "\($0)/.replay_history" }, completer: interpreter.completer
            ) : nil)
          ?? ScriptLineSource()
        if isTerminal {
          print(
            "\(recording.header.feature): \(recording.count) actions. "
              + "Type \"help\" for the commands."
          )
        }
        while !interpreter.isFinished, let line = source.readLine(prompt: interpreter.prompt) {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard !trimmed.isEmpty else { continue }
          source.remember(trimmed)
          _ = replay_take_interrupt()
          let output = interpreter.run(trimmed)
          if !output.isEmpty { print(output) }
        }
        if !isTerminal, interpreter.failed { throw ExitCode(1) }
      }
    }
  }
}
