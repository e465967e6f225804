import ActionLog
import ArgumentParser
import Foundation
import ReplayViewer
import TimeTravel

extension ReplayCommand {
  /// `replay html FILE -o report.html`: the recording as one self-contained page.
  struct HTML: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "html",
      abstract: "Write a recording as one self-contained HTML page, to read in any browser.",
      discussion: """
        The page shows the recording's header (feature, metadata, the reporter's note, \
        redactions, how it ended), a time axis of its actions, the actions with a search and a \
        filter by case, and for each step the action, where it came from, the effects it \
        started and cancelled, the state diff and the state as a tree. Arrow keys step, "/" \
        searches. It needs no network and no Swift: every step's state comes from the \
        recording itself, so a recording of a feature this replay lacks shows as much. Values \
        redacted in the recording stay redacted.

        A recording of more than --max-actions actions (250,000 by default) is shown from the \
        state before its last --max-actions actions, and the page says so. With --verify, \
        today's reducer re-runs the recording and the page highlights the first step that \
        differs, with its diff.

        Examples:
          $ replay html Recordings/todos.actionlog -o todos.html
          $ replay html bug-report.actionlog -o bug-report.html --verify
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(name: [.short, .customLong("output")], help: "The page to write (.html).")
    var output: String

    @Option(help: "The most actions the page holds: the last ones of a longer recording.")
    var maxActions = 250_000

    @Flag(help: "Re-run the recording with today's reducer and mark where it differs.")
    var verify = false

    @Flag(help: "Replace OUTPUT if it exists.")
    var force = false

    func run() throws {
      try self.reportingFailures {
        guard self.maxActions > 0 else {
          throw CommandFailure("--max-actions must be at least 1.", code: 2)
        }
        let destination = URL(fileURLWithPath: self.output).standardizedFileURL
        if FileManager.default.fileExists(atPath: destination.path), !self.force {
          throw CommandFailure("\(self.output) exists: give --force to replace it.", code: 2)
        }
        let recording = try self.recording.open()
        let verdict = try self.verify ? self.verdict(of: recording) : nil
        let summary: HTMLReport.Summary
        do {
          summary = try HTMLReport.write(
            recording, to: destination,
            options: HTMLReport.Options(
              maximumActions: self.maxActions, fileName: self.recording.name, verdict: verdict,
              actionText: Self.actionTexts(of: recording)))
        } catch let error as ActionLogError {
          throw CommandFailure(error.description)
        } catch let error as HTMLReport.WriteFailure {
          throw CommandFailure(error.description)
        }
        Self.printSummary(summary, of: recording, to: self.output, verdict: verdict)
      }
    }

    /// What today's reducer makes of the recording.
    /// Each action as the REPL prints it, when this replay knows the feature's types: the
    /// page shows the same text.
    static func actionTexts(of recording: Recording) -> (@Sendable (Int) -> String?)? {
      guard let feature = ReplayCommand.feature(for: recording.header),
        let session = try? feature.open(recording)
      else { return nil }
      let texts = PrintedActions(session: session)
      return { seq in texts.text(at: seq) }
    }

    private func verdict(of recording: Recording) throws -> HTMLReport.Verdict {
      let feature = try ReplayCommand.requireFeature(of: recording)
      let session = try feature.open(recording)
      let divergence = try session.verifyRecording(
        everyStep: true, willReplay: { _ in }, isCancelled: { false })
      if let divergence {
        return HTMLReport.Verdict(step: divergence.step, text: "\(divergence)")
      }
      return HTMLReport.Verdict(
        step: nil,
        text: "Today's reducer reproduces \(whatIsReproduced(recording, everyStep: true)).")
    }

    static func printSummary(
      _ summary: HTMLReport.Summary, of recording: Recording, to output: String,
      verdict: HTMLReport.Verdict?
    ) {
      var lines = [
        "Wrote \(output): \(summary.actions) actions"
          + (summary.leftOut == 0
            ? ""
            : " (steps \(summary.leftOut + 1)–\(recording.count) of \(recording.count): "
              + "the last ones, from the state before them)"),
        "  size       \(summary.bytes) bytes (the recording: \(recording.byteCount) bytes)",
      ]
      if !recording.header.hasStepUpdates {
        lines.append(
          "  note       the recording predates step updates: the page shows states at its "
            + "checkpoints only")
      }
      if let verdict {
        lines.append(
          "  verdict    "
            + (verdict.step.map { "today's reducer differs at step \($0), highlighted" }
              ?? "today's reducer reproduces every step"))
      }
      print(lines.joined(separator: "\n"))
    }
  }
}

/// A session's printed actions, read from one thread at a time.
private final class PrintedActions: @unchecked Sendable {
  private let session: any TimelineSession
  private let lock = NSLock()

  init(session: any TimelineSession) {
    self.session = session
  }

  func text(at seq: Int) -> String? {
    self.lock.withLock {
      (try? self.session.actionText(at: seq)).map(oneLine)
    }
  }
}
