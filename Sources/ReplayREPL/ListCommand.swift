import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay list FILE`: the actions, one per line.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List a recording's actions: step, time, origin, action.",
      discussion: """
        Actions of a registered feature are shown as Swift values; others as the JSON recorded.

        Examples:
          $ replay list Recordings/todos.actionlog
          $ replay list Recordings/todos.actionlog --from 100 --to 110
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(help: "The first step to list.")
    var from = 1

    @Option(help: "The last step to list (default: the last).")
    var to: Int?

    func run() throws {
      try self.reportingFailures {
        let recording = try self.recording.open()
        let last = self.to ?? recording.count
        guard recording.count > 0 else {
          print("(no actions)")
          return
        }
        for step in [self.from, last] where !(1...recording.count).contains(step) {
          throw CommandFailure(
            "there is no step \(step): the recording has actions 1 to \(recording.count).", code: 2
          )
        }
        guard self.from <= last else {
          throw CommandFailure("--from \(self.from) comes after --to \(last).", code: 2)
        }
        let session = try ReplayCommand.feature(recording.header.feature)?.open(recording)
        let width = Self.Widths(last: last, in: recording)
        for step in self.from...last {
          let action = try session?.dumpAction(at: step) ?? recording.actionJSON(step)
          print(Self.line(step: step, widths: width, recording: recording, action: action))
        }
      }
    }

    /// Column widths for lines up to step `last`: its number and its time are the widest.
    struct Widths {
      let step: Int
      let time: Int

      init(last: Int, in recording: Recording) {
        self.step = String(last).count
        self.time = last >= 1 ? seconds(recording.time(ofAction: last)).count + 1 : 0
      }
    }

    /// `  12  +4.200s  effect ← 11   Todos.Action.sortCompletedTodos`.
    static func line(step: Int, widths: Widths, recording: Recording, action: String) -> String {
      let number = String(step)
      let origin = originText(recording.origin(ofAction: step))
      let padding = String(repeating: " ", count: max(0, widths.step - number.count))
      let time = "+" + seconds(recording.time(ofAction: step))
      return """
        \(padding)\(number)  \(time.padding(toLength: max(widths.time, time.count), withPad: " ", startingAt: 0))  \
        \(origin.padding(toLength: 14, withPad: " ", startingAt: 0))\(oneLine(action))
        """
    }
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
