import ActionLog
import ComposableArchitecture
import CustomDump

/// What one step's reducer returned: as recorded, as today's reducer returns it, and the
/// actions its effects fed back.
public struct StepEffects: Sendable, Equatable {
  /// The step.
  public let step: Int
  /// What the recording says the reducer returned; `nil` when it has no effect ledger.
  public let recorded: EffectShape?
  /// What today's reducer returns for the same action from the same state; `nil` when the
  /// session cannot re-run it.
  public let replayed: EffectShape?
  /// The later actions its effects fed back, in order.
  public let fedBack: [Int]

  /// A step's effects.
  public init(step: Int, recorded: EffectShape?, replayed: EffectShape?, fedBack: [Int]) {
    self.step = step
    self.recorded = recorded
    self.replayed = replayed
    self.fedBack = fedBack
  }
}

/// The recording replayed without an action and what its effects fed back.
public struct SkipOutcome: Sendable, Equatable {
  /// The steps left out: the one asked for, and every action its effects fed back, at any
  /// remove.
  public let skipped: [Int]
  /// How the end state differs from the recorded one; `nil` when it does not.
  public let change: StateDiff?
  /// Issues the reducer reported on the way: the later actions met a state they were not
  /// recorded in.
  public let issues: [String]
}

extension Recording {
  /// The actions whose trigger is `seq`: what its effects fed back directly.
  public func actionsFedBack(by seq: Int) -> [Int] {
    guard seq >= 1, seq < self.count else { return [] }
    return (seq + 1...self.count).filter {
      if case .effect(parent: seq) = self.origin(ofAction: $0) { return true }
      return false
    }
  }

  /// `seq` and every action its effects fed back, and theirs, at any remove.
  public func descendants(of seq: Int) -> [Int] {
    guard seq >= 1, seq <= self.count else { return [] }
    var family: Set<Int> = [seq]
    var ordered = [seq]
    for later in stride(from: seq + 1, through: self.count, by: 1) {
      if case let .effect(parent) = self.origin(ofAction: later), family.contains(parent) {
        family.insert(later)
        ordered.append(later)
      }
    }
    return ordered
  }
}

extension Timeline {
  /// What the reducer returned at `step`: recorded, and re-run from the state before it.
  public func effects(at step: Int) throws -> StepEffects {
    guard step >= 1, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    var state = try self.state(at: step - 1)
    let replayed = try self.replayer.apply(step, to: &state)
    let recorded =
      self.recording.header.hasEffectLedger
      ? try EffectShape(ledgerJSON: replayed.recordedEffects) : nil
    return StepEffects(
      step: step, recorded: recorded, replayed: replayed.effects,
      fedBack: self.recording.actionsFedBack(by: step))
  }

  /// Replays the recording from the state before `step` to its end without the action at
  /// `step` and what its effects fed back, each other action with its recorded dependency
  /// values, and compares the end state with the recorded one. The timeline does not move.
  ///
  /// - Returns: `nil` when `isCancelled` said to stop.
  public func skipping(_ step: Int, isCancelled: () -> Bool = { false }) throws -> SkipOutcome? {
    guard step >= 1, step <= self.count else {
      throw TimelineError.outOfRange(step: step, count: self.count)
    }
    let skipped = self.recording.descendants(of: step)
    let left = Set(skipped)
    var state = try self.state(at: step - 1)
    var issues: [String] = []
    for later in stride(from: step + 1, through: self.count, by: 1) where !left.contains(later) {
      if later % 1_024 == 0, isCancelled() { return nil }
      issues += try self.replayer.apply(later, to: &state).issues
    }
    let recorded = try self.state(at: self.count)
    let change = recorded == state ? nil : prunedDiff(recorded, state).map(StateDiff.init)
    return SkipOutcome(skipped: skipped, change: change, issues: issues)
  }
}
