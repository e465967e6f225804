import TimeTravel

/// Completes what is typed at the prompt: command names, then what the command takes (state
/// paths for `print` and `watch`, action case names for `break`, `find` and after a dot in
/// `send`, a case's labels inside its parentheses in `send`, commands for `help`).
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
  /// The labels of each action case's associated values, by case name.
  var caseLabels: () -> [String: Set<String>] = { [:] }

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
      if let (caseName, fragment) = Self.labelPosition(in: line) {
        // A label inside a case's parentheses: `.element(id: 0, ac` completes to `action: `.
        let labels = (self.caseLabels()[caseName] ?? []).filter { $0.hasPrefix(fragment) }
        return Completion(
          word: fragment, candidates: labels.map { $0 + ":" }.sorted(), endsWord: true)
      }
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

  /// Where `line` ends at a label of a case's associated values (or a struct's members): right
  /// after the case's `(` or a `,` between its values, with the label typed so far. Returns the
  /// case's name (a type's last component) and that fragment; `nil` elsewhere (inside a string,
  /// after a dot, after a label's colon).
  static func labelPosition(in line: String) -> (caseName: String, fragment: String)? {
    let characters = Array(line)
    func isIdentifier(_ character: Character) -> Bool {
      character.isLetter || character.isNumber || character == "_"
    }
    var fragmentStart = characters.count
    while fragmentStart > 0, isIdentifier(characters[fragmentStart - 1]) { fragmentStart -= 1 }
    var before = fragmentStart
    while before > 0, characters[before - 1] == " " { before -= 1 }
    guard before > 0, characters[before - 1] == "(" || characters[before - 1] == "," else {
      return nil
    }
    // The parentheses and brackets still open at the end, outside strings.
    var open: [Int] = []
    var inString = false
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if inString {
        if character == "\\" { index += 1 } else if character == "\"" { inString = false }
      } else {
        switch character {
        case "\"": inString = true
        case "(", "[": open.append(index)
        case ")", "]": _ = open.popLast()
        default: break
        }
      }
      index += 1
    }
    guard !inString, let parenthesis = open.last, characters[parenthesis] == "(" else {
      return nil
    }
    var nameStart = parenthesis
    while nameStart > 0, isIdentifier(characters[nameStart - 1]) { nameStart -= 1 }
    guard nameStart < parenthesis else { return nil }
    return (String(characters[nameStart..<parenthesis]), String(characters[fragmentStart...]))
  }
}
