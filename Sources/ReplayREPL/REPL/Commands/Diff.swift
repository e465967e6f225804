import Foundation
import TimeTravel

// `diff [FROM [TO]]`: what the current action changed, or what changed between two steps.
extension Interpreter.Command {
  /// `diff [FROM [TO]]`.
  static let diff = Self(
    names: ["diff", "d"], usage: "diff [FROM [TO]]",
    summary: "Show what changed: by the current step's action, or between two steps."
  ) { interpreter, arguments in try interpreter.diff(arguments.words) }
}

extension Interpreter {
  func diff(_ words: [String]) throws -> String {
    let position = self.session.position
    let changes: StateDiff?
    switch words.count {
    case 0 where self.session.divertedAt != nil:
      changes = try self.session.diversionChanges()
    case 0:
      changes = try self.session.changes(from: max(0, position - 1), to: position)
    case 1:
      changes = try self.session.changes(from: try number(words[0]), to: position)
    default:
      changes = try self.session.changes(from: try number(words[0]), to: try number(words[1]))
    }
    return changes.map { self.style.diff($0.text) } ?? "(No state changes)"
  }
}
