import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ReplayCommand {
  /// `replay dap`: the debugger, for an editor.
  struct DAP: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "dap",
      abstract: "Serve the Debug Adapter Protocol on standard input and output, for an editor.",
      discussion: """
        An editor's debugger (VS Code, Neovim's nvim-dap, Emacs' dape, Zed, Helix) starts it \
        and sends "launch" with the recording: {"recording": "Recordings/todos.actionlog", \
        "sourceRoot": "."}. The store is the one thread; each step is a stop whose frames are \
        the action at the line that sent it, then the action whose effect sent it, and so on. \
        next and step back move one step; step in goes to what the step's effects fed back, \
        step out to the next action sent to the store; continue and reverse continue go to the \
        next breakpoint, or stop at the end or the start.

        Breakpoints: on a line that sent actions (a Store.send, an Effect.run or .send), with \
        a condition in the REPL's syntax (todos.count == 3), a hit count (3, >= 3, % 3) or a \
        log message ({todos.count} todos); on an action's case name (function breakpoints); \
        on a state value (data breakpoints: continue stops where it changes). The debug \
        console runs the REPL's commands (print, diff, effects, find, send, discard, help); a \
        hovered or watched expression is a state path.

        Standard output carries the protocol only. The README shows the set-up for VS Code, \
        Neovim and Emacs.
        """
    )

    func run() throws {
      let writer = DAPWriter()
      let adapter = DebugAdapter(catalog: ReplayCommand.catalog, send: writer.send)
      let reader = DAPReader()
      while true {
        switch reader.next() {
        case let .body(body):
          adapter.handle(body)
          if let status = adapter.exitStatus { Foundation.exit(status) }
        case let .malformed(reason):
          adapter.malformed(reason)
        case .end:
          return
        }
      }
    }
  }
}
