import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

extension ReplayCommand {
  /// `replay shrink FILE`: the smallest recording that still fails the same way.
  struct Shrink: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shrink a failing recording to the few actions that make it fail.",
      discussion: """
        Delta debugging (Zeller's ddmin) over the recording's actions: replays shorter and \
        shorter recordings and keeps the smallest that still fails the same way. An action sent \
        to the store and the actions its effects fed back are kept or left out together; each \
        keeps the dependency values it read. Prints the size at each round; Ctrl-C stops and \
        writes the smallest found so far.

        How it must fail, one of:
        • --watch 'PATH == VALUE' (or !=): the state reaches a value, written as print PATH \
        shows it.
        • --break ACTION: an action matching ACTION is replayed; with --watch, the condition \
        holds right after it.
        • --verify --recorded-with NAME: today's reducer parts from the behaviour the \
        recording was made with, first at the same property (at any index) or in its effects. \
        A shorter recording has no recorded states, so each candidate is replayed with both: \
        NAME is a behaviour the feature registers (ReplayFeature's behaviours).

        The new recording has a checkpoint after every action (the recorded behaviour's states \
        with --verify, today's otherwise), and its header's shrunkFrom says which actions of \
        which recording it keeps. Step through it with replay, or make it a test with replay \
        export-test.

        Exits with 0 when the recording is shrunk and written, 1 when it does not fail that \
        way or cannot be written, 2 when this replay does not have the feature, 130 on Ctrl-C \
        (after writing the smallest found so far).

        Examples:
          $ replay shrink session.actionlog --watch 'todos.count == 0'
          $ replay shrink session.actionlog --break delete --watch 'filter == .all'
          $ replay shrink report.actionlog --verify --recorded-with heart-bug
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Flag(help: "Keep today's reducer parting from the recorded behaviour (--recorded-with).")
    var verify = false

    @Option(
      help: ArgumentHelp(
        "The registered behaviour the recording was made with, for --verify.", valueName: "name"))
    var recordedWith: String?

    @Option(
      name: .customLong("break"),
      help: ArgumentHelp("Keep reaching an action matching ACTION.", valueName: "action"))
    var breakpoint: String?

    @Option(
      help: ArgumentHelp("Keep meeting 'PATH == VALUE' or 'PATH != VALUE'.", valueName: "condition")
    )
    var watch: String?

    @Option(
      name: [.short, .customLong("output")],
      help: ArgumentHelp(
        "Where to write the shrunk recording (default: FILE's name with .shrunk).",
        valueName: "out"))
    var output: String?

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    func validate() throws {
      if self.verify, self.breakpoint != nil || self.watch != nil {
        throw ValidationError("--verify shrinks by a divergence alone: drop --break and --watch.")
      }
      if !self.verify, self.breakpoint == nil, self.watch == nil {
        throw ValidationError("Say how the recording fails: --verify, --break ACTION or --watch.")
      }
      if self.recordedWith != nil, !self.verify {
        throw ValidationError("--recorded-with goes with --verify.")
      }
    }

    func run() throws {
      try self.reportingFailures {
        let condition = try self.condition()
        let (recording, feature) = try self.recording.openReplayable()
        if self.verify, self.recordedWith == nil {
          throw CommandFailure(Self.missingBehaviour(of: feature))
        }
        let name = self.recording.name
        let path = self.output ?? Self.defaultOutput(self.recording.file)
        let target = URL(fileURLWithPath: path)
        try ReplayCommand.makeRoom(at: target, force: self.force)
        print(
          "Shrinking \(name) (\(counted(recording.count, "action"))) to the fewest that still "
            + "fail: \(condition).")
        fflush(nil)
        Interruption.install()
        let outcome: ShrinkOutcome
        do {
          var round = 0
          outcome = try feature.shrink(
            recording,
            ShrinkRequest(
              url: target, condition: condition, recordedWith: self.recordedWith, source: name),
            progress: { progress in
              print(
                round == 0
                  ? "Up to where it first fails: \(Self.size(progress))."
                  : "Round \(round): \(Self.size(progress)), \(progress.tests) replayed.")
              round += 1
              // NB: Each round as it comes, also through a pipe.
              fflush(nil)
            },
            isCancelled: { Interruption.isRequested }
          )
        } catch let error as ShrinkError {
          throw CommandFailure(self.explain(error, recording: recording, feature: feature))
        }
        let kept =
          outcome.kept.isEmpty
          ? "no action: the initial state already does"
          : "\(counted(outcome.kept.count, "action")) (steps \(Self.list(outcome.kept)))"
        print(
          """
          \(outcome.isComplete ? "Shrunk" : "Interrupted; the smallest so far:") \(name) from \
          \(counted(outcome.original, "action")) to \(kept), in \
          \(counted(outcome.tests, "replay")): \
          \(outcome.failure == .condition ? "still \(condition)" : "\(outcome.failure)").
          Wrote \(path).\(outcome.isComplete ? Self.minimality : "")
          Step through it with: replay \(path)
          Make it a test with:  replay export-test \(path) --name NAME
          """
        )
        if Interruption.isRequested { throw ExitCode(Interruption.exitStatus) }
      }
    }

    private func condition() throws -> ShrinkCondition {
      do {
        // NB: Its value read as Swift, as the REPL's conditions are.
        let watch = try self.watch.map { try ValueCondition($0).stateCondition }
        if self.verify { return .diverges }
        if let breakpoint = self.breakpoint {
          return .reaches(ActionBreakpoint(breakpoint), where: watch)
        }
        guard let watch else { throw ValidationError("no condition") }
        return .watch(watch)
      } catch let error as StateConditionError {
        throw CommandFailure(error.description)
      } catch let error as InterpreterError {
        throw CommandFailure("--watch: \(error.description)")
      } catch let error as StatePathError {
        throw CommandFailure("--watch: \(error.description)")
      }
    }

    /// The error, and for a condition never met on a path that leads nowhere at the end of the
    /// recording, where it stops: likelier a typo than a value never reached.
    private func explain(
      _ error: ShrinkError, recording: Recording, feature: ReplayFeature
    ) -> String {
      let watched: StateCondition?
      switch error {
      case .doesNotFail(.watch(let condition)), .doesNotFail(.reaches(_, .some(let condition))):
        watched = condition
      default:
        watched = nil
      }
      guard let watched, let session = try? feature.open(recording),
        (try? session.goto(session.count)) != nil
      else { return error.description }
      do {
        _ = try session.state(at: watched.path)
        return error.description
      } catch let pathError {
        return "\(error.description) At the end of the recording, \(pathError)"
      }
    }

    static func missingBehaviour(of feature: ReplayFeature) -> String {
      let registered =
        feature.behaviours.isEmpty
        ? """
        "\(feature.id)" registers none: add the behaviour the recording was made with to its \
        ReplayFeature (behaviours: ["name": { … }]), or shrink by what the bug does to the \
        state (--watch) or the action it reaches (--break), which need today's reducer only.
        """
        : """
        "\(feature.id)" registers \(feature.behaviours.map { "\"\($0)\"" }.joined(separator: ", ")).
        """
      return """
        --verify needs --recorded-with NAME, the behaviour the recording was made with: a \
        shorter recording has no recorded states to compare today's reducer with, so each one \
        is replayed with both. \(registered)
        """
    }

    static let minimality = " Leaving out any one action sent to the store makes it pass."

    /// `FILE` with `.shrunk` before its extension, beside it.
    static func defaultOutput(_ file: String) -> String {
      let base = file.hasSuffix(".actionlog") ? String(file.dropLast(".actionlog".count)) : file
      return base + ".shrunk.actionlog"
    }

    static func size(_ progress: ShrinkProgress) -> String {
      "\(counted(progress.actions, "action")), \(progress.units) sent to the store"
    }

    static func list(_ steps: [Int]) -> String {
      let shown = steps.prefix(12).map(String.init).joined(separator: ", ")
      return steps.count > 12 ? "\(shown), … \(steps.count - 12) more" : shown
    }
  }
}
