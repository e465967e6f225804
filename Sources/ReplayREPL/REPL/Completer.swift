import TimeTravel

/// Completes what is typed at the prompt: command names, then what the command takes (state
/// paths for `print` and `watch`, action case names for `break`, `find` and after a dot in
/// `send`, commands for `help`).
struct Completer {
  /// What can complete the word at the cursor.
  struct Completion: Equatable {
    /// The word being completed, as typed so far.
    let word: String
    /// The words that complete it, sorted.
    let candidates: [String]
    /// Whether a finished candidate takes a space after it (a path may go on with `.` or `[`).
    let endsWord: Bool

    /// The text to insert after `word`: what all the candidates share beyond it, plus a space
    /// when there is exactly one that ends a word.
    var insertion: String {
      guard let first = self.candidates.first else { return "" }
      var shared = first[...]
      for candidate in self.candidates.dropFirst() {
        shared = shared.prefix(zip(shared, candidate).prefix { $0 == $1 }.count)
      }
      let rest = String(shared.dropFirst(self.word.count))
      return self.candidates.count == 1 && self.endsWord ? rest + " " : rest
    }
  }

  let commands: [Interpreter.Command]
  let caseNames: () -> Set<String>
  let state: () -> Any

  /// The completion for `line`, the text before the cursor.
  func complete(_ line: String) -> Completion {
    let endsInSpace = line.last?.isWhitespace ?? true
    var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    if endsInSpace { words.append("") }
    guard words.count > 1 else {
      // Commands by their full names; an alias only when no full name fits (`rs`).
      let word = words.first ?? ""
      var names = self.commands.compactMap(\.names.first).filter { $0.hasPrefix(word) }
      if names.isEmpty {
        names = self.commands.flatMap { $0.names.dropFirst() }.filter { $0.hasPrefix(word) }
      }
      return Completion(word: word, candidates: names.sorted(), endsWord: true)
    }
    let word = words[words.count - 1]
    let command = self.commands.first { $0.names.contains(words[0]) }
    switch (command?.names.first, words.count) {
    case ("print", 2), ("watch", 2):
      let paths = StatePath.completions(of: word, in: self.state())
      return Completion(word: word, candidates: paths.sorted(), endsWord: false)
    case ("send", _):
      // A case name after a dot: `.todos(.elem` completes to `.element`.
      guard let dot = line.lastIndex(of: "."),
        line[line.index(after: dot)...].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else { return Completion(word: "", candidates: [], endsWord: false) }
      let fragment = String(line[line.index(after: dot)...])
      let names = self.caseNames().filter { $0.hasPrefix(fragment) }
      return Completion(word: fragment, candidates: names.sorted(), endsWord: false)
    case ("break", 2), ("find", 2):
      let names = self.caseNames().filter { $0.hasPrefix(word) }
      return Completion(word: word, candidates: names.sorted(), endsWord: true)
    case ("help", 2):
      let names = self.commands.compactMap(\.names.first).filter { $0.hasPrefix(word) }
      return Completion(word: word, candidates: names.sorted(), endsWord: true)
    case ("info", 2):
      let names = ["breakpoints"].filter { $0.hasPrefix(word) }
      return Completion(word: word, candidates: names, endsWord: true)
    default:
      return Completion(word: word, candidates: [], endsWord: true)
    }
  }
}
