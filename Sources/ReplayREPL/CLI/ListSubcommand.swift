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
        let session = try ReplayCommand.feature(for: recording.header)?.open(recording)
        let widths = ActionLine.Widths(last: last, in: recording)
        for step in self.from...last {
          let action = try session?.actionText(at: step) ?? recording.actionJSON(step)
          print(ActionLine.text(step: step, widths: widths, recording: recording, action: action))
        }
      }
    }
  }
}
