import ComposableArchitecture
import Foundation
import TimeTravel

// `effects [STEP]` and `skip STEP`: what an action's reducer started and cancelled, and the
// recording replayed without an action.
extension Interpreter.Command {
  /// `effects [STEP]`.
  static let effects = Self(
    names: ["effects", "e"], usage: "effects [STEP]",
    summary: "Show what a step's reducer started and cancelled, and what its effects fed back."
  ) { interpreter, arguments in
    let step = try interpreter.actionStep(
      arguments.first, refusingZeroBecause: "no reducer ran to reach it")
    return try interpreter.effects(at: step)
  }

  /// `skip STEP`.
  static let skip = Self(
    names: ["skip"], usage: "skip STEP",
    summary: "Replay the rest without a step and what its effects fed back; show the end state."
  ) { interpreter, arguments in
    guard let word = arguments.first else {
      throw InterpreterError("skip needs a step, such as \"skip 12\".")
    }
    return try interpreter.skip(try number(word))
  }
}

extension Interpreter {
  func effects(at step: Int) throws -> String {
    let effects = try self.session.effects(at: step)
    var lines = [self.line(for: step, upTo: self.session.count)]
    if let recorded = effects.recorded {
      lines.append("  returned   \(recorded)")
      let started = Self.runs(in: recorded)
      if !started.isEmpty { lines.append("  started    \(started.joined(separator: ", "))") }
      let cancelled = recorded.cancelledIDs.map(\.description)
      if !cancelled.isEmpty { lines.append("  cancelled  \(cancelled.joined(separator: ", "))") }
      if let replayed = effects.replayed, replayed != recorded {
        let verdict =
          replayed.behavesLike(recorded)
          ? "the same effects, written elsewhere or merged in another order"
          : "today's reducer returns other effects"
        lines.append("  today      \(replayed)  (\(verdict))")
      }
    } else {
      lines.append(
        """
          The recording has no effect ledger (it was made before recordings kept one): what \
        this step's reducer returned is not known.
        """)
      if let replayed = effects.replayed {
        lines.append("  today      \(replayed)")
      }
    }
    if effects.fedBack.isEmpty {
      lines.append("  fed back   nothing")
    } else {
      lines.append("  fed back")
      for later in effects.fedBack {
        lines.append("    " + self.line(for: later, upTo: self.session.count))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The sites of the asynchronous work in a shape: `run at Todos.swift:86`.
  static func runs(in shape: EffectShape) -> [String] {
    switch shape {
    case .none, .send, .cancel: []
    case .run(let site): ["run at \(site)"]
    case .merge(let effects), .concatenate(let effects): effects.flatMap(Self.runs)
    case .cancellable(_, _, let effect): Self.runs(in: effect)
    }
  }

  func skip(_ step: Int) throws -> String {
    guard let outcome = try self.session.skipping(step, isCancelled: self.interrupted) else {
      return "Interrupted: nothing was skipped."
    }
    let fedBack = outcome.skipped.dropFirst()
    let steps = fedBack.map(String.init).joined(separator: ", ")
    let also =
      fedBack.isEmpty
      ? "" : " and the \(counted(fedBack.count, "action")) its effects fed back (\(steps))"
    var lines = [
      """
      Replayed steps \(step + 1)–\(self.session.count) without step \(step)\(also), on a \
      diversion: the recording is unchanged.
      """
    ]
    if let change = outcome.change {
      lines.append("The end state differs from the recorded one:")
      lines.append(self.style.diff(change.text))
    } else {
      lines.append("The end state is the recorded one: step \(step) changed nothing that lasted.")
    }
    if !outcome.issues.isEmpty {
      lines.append("The reducer reported on the way:")
      lines += outcome.issues.map { "  • \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
