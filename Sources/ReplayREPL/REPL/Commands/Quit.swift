// `quit`: leave.
extension Interpreter.Command {
  /// `quit`.
  static let quit = Self(
    names: ["quit", "q", "exit"], usage: "quit", summary: "Leave (Ctrl-D too)."
  ) { interpreter, _ in
    interpreter.finish()
    return ""
  }
}
