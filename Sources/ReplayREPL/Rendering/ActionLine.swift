import ActionLog
import Foundation

/// A step as `list`, `find` and the REPL show it: step, time, origin and action on one line.
enum ActionLine {
  /// Column widths for lines up to step `last`: its number and its time are the widest.
  struct Widths {
    let step: Int
    let time: Int
    /// The widest source line the recording's actions were sent from; 0 without any.
    let site: Int

    init(last: Int, in recording: Recording) {
      self.step = String(last).count
      self.time = last >= 1 ? seconds(recording.time(ofAction: last)).count + 1 : 0
      self.site = recording.callSites.map(\.description.count).max() ?? 0
    }
  }

  /// `  12  +4.200s  effect ← 11   Todos.swift:80   Todos.Action.sortCompleted`: the
  /// source line that sent it is shown when the recording has them.
  static func text(step: Int, widths: Widths, recording: Recording, action: String) -> String {
    let number = String(step)
    var origin = originText(recording.origin(ofAction: step))
      .padding(toLength: 14, withPad: " ", startingAt: 0)
    if widths.site > 0 {
      origin += (recording.site(ofAction: step)?.description ?? "")
        .padding(toLength: widths.site + 2, withPad: " ", startingAt: 0)
    }
    let padding = String(repeating: " ", count: max(0, widths.step - number.count))
    let time = "+" + seconds(recording.time(ofAction: step))
    let paddedTime = time.padding(
      toLength: max(widths.time, time.count), withPad: " ", startingAt: 0
    )
    return """
      \(padding)\(number)  \(paddedTime)  \
      \(origin)\(oneLine(action))
      """
  }
}

/// A dump on one line: `Todos.Action.todos(.element(id: …, action: .checkBoxToggled))`.
func oneLine(_ dump: String) -> String {
  var result = ""
  for line in dump.split(separator: "\n", omittingEmptySubsequences: false) {
    let trimmed = line.drop { $0 == " " }
    if let last = result.last, last == ",", !trimmed.isEmpty, trimmed.first != ")" {
      result += " "
    }
    result += trimmed
  }
  return result
}
