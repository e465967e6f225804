import ActionLog
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
        ~/.replay_history). Otherwise they are read from standard input, one per line, and \
        replay exits with 1 if any failed. Type "help" for the commands.

        Examples:
          $ replay Recordings/todos.actionlog
          $ printf 'goto 12\\nprint todos[0]\\n' | replay Recordings/todos.actionlog
        """
    )

    @OptionGroup var recording: RecordingOptions

    func run() throws {
      try self.reportingFailures {
        let recording = try self.recording.open()
        guard let feature = ReplayCommand.feature(recording.header.feature) else {
          let known = ReplayCommand.features.map(\.id).joined(separator: ", ")
          throw CommandFailure(
            """
            this replay does not know the feature "\(recording.header.feature)" (it knows \
            \(known)), so it cannot re-run the recording: "replay info" and "replay list" still \
            read it.
            """,
            code: 2
          )
        }
        let interpreter = Interpreter(session: try feature.open(recording))
        let isTerminal = isatty(STDIN_FILENO) != 0
        let home = ProcessInfo.processInfo.environment["HOME"]
        let source: any LineSource =
          (isTerminal ? EditLineSource(historyPath: home.map { "\($0)/.replay_history" }) : nil)
          ?? ScriptLineSource()
        if isTerminal {
          print("\(recording.header.feature): \(recording.count) actions. Type \"help\" for the commands.")
          if recording.ending != .clean { print("note: the recording is \(recording.ending).") }
        }
        while !interpreter.isFinished, let line = source.readLine(prompt: interpreter.prompt) {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard !trimmed.isEmpty else { continue }
          source.remember(trimmed)
          let output = interpreter.run(trimmed)
          if !output.isEmpty { print(output) }
        }
        if !isTerminal, interpreter.failed { throw ExitCode(1) }
      }
    }
  }
}
