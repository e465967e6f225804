import ActionLog
import ComposableArchitecture
import CustomDump
import Foundation

/// How far `replay shrink` has come: the smallest recording found so far that still fails.
public struct ShrinkProgress: Sendable, Equatable {
  /// Its actions.
  public let actions: Int
  /// Its units: an action sent to the store with the actions its effects fed back.
  public let units: Int
  /// How many candidate recordings were replayed so far.
  public let tests: Int
}

/// What ``Timeline/shrink(to:keeping:recordedBy:metadata:source:progress:isCancelled:)`` found
/// and wrote.
public struct ShrinkOutcome: Sendable, Equatable {
  /// The actions kept, by their steps in the original recording.
  public let kept: [Int]
  /// The actions the original recording has.
  public let original: Int
  /// How the full recording fails, and so the shrunk one: for ``ShrinkCondition/diverges``,
  /// where today's reducer first parts from the recorded behaviour.
  public let failure: ShrinkFailure
  /// How many candidate recordings were replayed.
  public let tests: Int
  /// Whether the search ran to its end: then leaving out any one unit more makes the
  /// recording pass. `false` when it was interrupted, with the smallest found so far.
  public let isComplete: Bool
  /// The new recording.
  public let written: ExportSummary
}

/// Where a replay first fails the condition a recording is shrunk by.
public enum ShrinkFailure: Sendable, Equatable, CustomStringConvertible {
  /// Today's reducer computes another state than the recorded behaviour, first at this path.
  case state(StatePath)
  /// Today's reducer returns other effects than the recorded behaviour, for the same state.
  case effects
  /// The condition holds.
  case condition

  /// Whether a candidate fails as the original did: the same property, at any index.
  func isSame(as other: Self) -> Bool {
    switch (self, other) {
    case let (.state(left), .state(right)): left.isSameProperty(as: right)
    case (.effects, .effects), (.condition, .condition): true
    default: false
    }
  }

  public var description: String {
    switch self {
    case let .state(path):
      "the state differs first at \(path.components.isEmpty ? "its root" : path.description)"
    case .effects: "the effects differ first, the states still agreeing"
    case .condition: "the condition holds"
    }
  }
}

/// Why a recording cannot be shrunk.
public enum ShrinkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The whole recording does not fail as asked.
  case doesNotFail(ShrinkCondition)
  /// ``ShrinkCondition/diverges`` without the behaviour the recording was made with.
  case needsRecordedBehaviour
  /// The behaviour given as the recording's does not reproduce it.
  case recordedBehaviourDiffers(Divergence)
  /// No behaviour of that name is registered.
  case noSuchBehaviour(String, available: [String])
  /// The recording is read through migrations: migrate it first.
  case needsCurrentVersion(recorded: Int)

  public var description: String {
    switch self {
    case let .doesNotFail(condition):
      return """
        The recording does not fail that way, so there is nothing to shrink: replayed to its \
        end, it never meets the condition: \(condition).
        """
    case .needsRecordedBehaviour:
      return """
        Shrinking by divergence needs the behaviour the recording was made with: a shorter \
        recording has no recorded states to compare today's with, so each candidate is \
        replayed with both.
        """
    case let .noSuchBehaviour(name, available):
      return available.isEmpty
        ? "This feature has no behaviour named \"\(name)\": it registers none."
        : """
        This feature has no behaviour named "\(name)". It has: \
        \(available.map { "\"\($0)\"" }.joined(separator: ", ")).
        """
    case let .needsCurrentVersion(recorded):
      return """
        This recording is at version \(recorded) of the feature and is read through migrations; \
        a shrunk copy would mix versions. Migrate it first (replay migrate FILE -o NEW), then \
        shrink the new file.
        """
    case let .recordedBehaviourDiffers(divergence):
      return """
        The behaviour given as the recording's does not reproduce it, so it cannot stand in for \
        it on shorter recordings:

        \(divergence)
        """
    }
  }
}

extension Timeline {
  /// Writes the smallest recording found that still fails as `condition` says, by delta
  /// debugging (Zeller's ddmin) over the recording's actions, to `url`.
  ///
  /// An action sent to the store and the actions its effects fed back, at any remove, are kept
  /// or left out together; each keeps the dependency values recorded for it. Actions after the
  /// point where the whole recording first fails are left out at once. The new recording has a
  /// checkpoint after every action, holding the states and effects of the recorded behaviour
  /// (`reference`) for ``ShrinkCondition/diverges``, or of today's reducer otherwise, and its
  /// header's `shrunkFrom` says what it was shrunk from and how.
  ///
  /// - Parameters:
  ///   - url: Where to write the shrunk recording; it must not exist.
  ///   - condition: How the recording fails.
  ///   - reference: The behaviour the recording was made with, for
  ///     ``ShrinkCondition/diverges``: it must reproduce the recording.
  ///   - metadata: More header metadata for the new recording.
  ///   - source: The recording's file name, for the new header's `shrunkFrom`.
  ///   - progress: Told each time a smaller failing recording is found.
  ///   - isCancelled: Polled between candidates; when it says to stop, the smallest recording
  ///     found so far is written.
  /// - Throws: ``ShrinkError``, a ``TimelineError``, or what reading and writing throw.
  public func shrink(
    to url: URL,
    keeping condition: ShrinkCondition,
    recordedBy reference: (any Reducer<R.State, R.Action>)? = nil,
    metadata: [String: String] = [:],
    source: String? = nil,
    progress: (ShrinkProgress) -> Void = { _ in },
    isCancelled: () -> Bool = { false }
  ) throws -> ShrinkOutcome {
    guard self.recording.appliedMigrationSteps.isEmpty else {
      throw ShrinkError.needsCurrentVersion(recorded: self.recording.header.schemaVersion)
    }
    let referenceReplayer = try reference.map { reference in
      let replayer = Replayer(
        recording: self.recording, reducer: Reduce(reference),
        dependencies: self.replayer.dependencies)
      let timeline = try Timeline<Reduce<R.State, R.Action>>(replayer: replayer)
      if let divergence = try timeline.verify(isCancelled: isCancelled) {
        throw ShrinkError.recordedBehaviourDiffers(divergence)
      }
      return replayer
    }
    if condition == .diverges, referenceReplayer == nil {
      throw ShrinkError.needsRecordedBehaviour
    }
    let candidate = Candidate(
      timeline: self, condition: condition, reference: referenceReplayer)

    // The whole recording, to the point where it first fails.
    let all = Array(stride(from: 1, through: self.count, by: 1))
    guard let failure = try candidate.failure(replaying: all) else {
      throw ShrinkError.doesNotFail(condition)
    }
    let units = self.recording.units(through: failure.step)
    var best = units.flatMap { $0 }.sorted()
    progress(ShrinkProgress(actions: best.count, units: units.count, tests: 1))

    let search = try DeltaDebugging<[Int]>.minimize(
      units,
      fails: { units in
        let steps = units.flatMap { $0 }.sorted()
        return try candidate.failure(replaying: steps)?.kind.isSame(as: failure.kind) == true
      },
      improved: { units, tests in
        best = units.flatMap { $0 }.sorted()
        progress(ShrinkProgress(actions: best.count, units: units.count, tests: tests + 1))
      },
      isCancelled: isCancelled
    )
    var isComplete = search.isComplete
    var tests = search.tests
    // ddmin's answer is 1-minimal: no one unit can go. Several at once may, where that is
    // cheap to try: every smaller set of the units left, from the fewest up.
    var remaining = search.input
    while isComplete, remaining.count > 1, remaining.count <= Self.exhaustiveShrinkLimit {
      guard
        let smaller = try DeltaDebugging<[Int]>.smallest(
          remaining,
          fails: { units in
            let steps = units.flatMap { $0 }.sorted()
            return try candidate.failure(replaying: steps)?.kind.isSame(as: failure.kind) == true
          },
          budget: 4_096, isCancelled: isCancelled)
      else {
        isComplete = !isCancelled()
        break
      }
      tests += smaller.tests
      remaining = smaller.input
      best = remaining.flatMap { $0 }.sorted()
      progress(ShrinkProgress(actions: best.count, units: remaining.count, tests: tests + 1))
    }

    // What the recorded behaviour did on the shrunk recording.
    let recorded = try candidate.recordedRun(replaying: best)
    var steps = best.prefix(40).map(String.init).joined(separator: ", ")
    if best.count > 40 { steps += ", … (\(best.count) in all)" }
    var metadata = metadata
    let file = source.map { " in \($0)" } ?? ""
    metadata["shrunkFrom"] = """
      actions \(best.isEmpty ? "none" : steps) of \(self.count)\(file), recorded from \
      \(ISO8601DateFormatter().string(from: self.recording.header.startedAt)); still: \
      \(condition) (\(failure.kind))\(isComplete ? "" : "; interrupted, it may shrink further")
      """
    let written = try self.recording.export(
      to: url,
      options: ExportOptions(
        metadata: metadata,
        effectLedger: recorded.ledger,
        subset: ExportOptions.Subset(actions: best, checkpointStates: recorded.states)
      )
    )
    return ShrinkOutcome(
      kept: best, original: self.count, failure: failure.kind, tests: tests + 1,
      isComplete: isComplete, written: written)
  }
}

extension Timeline {
  /// Up to how many units a shrink tries every smaller set of them after ddmin.
  static var exhaustiveShrinkLimit: Int { 12 }
}

extension EffectShape {
  /// Whether the effect can feed an action back: it sends one, or runs work that may.
  var canFeedBack: Bool {
    switch self {
    case .none, .cancel: false
    case .send, .run: true
    case .merge(let effects), .concatenate(let effects): effects.contains(where: \.canFeedBack)
    case .cancellable(_, _, let effect): effect.canFeedBack
    }
  }
}

extension Recording {
  /// The recording's actions through `last`, in units: an action sent to the store with every
  /// action its effects fed back, at any remove (those may come after `last`).
  func units(through last: Int) -> [[Int]] {
    var unitOf: [Int: Int] = [:]
    var units: [[Int]] = []
    for seq in stride(from: 1, through: self.count, by: 1) {
      if case let .effect(parent) = self.origin(ofAction: seq), let unit = unitOf[parent] {
        unitOf[seq] = unit
        units[unit].append(seq)
      } else if seq <= last {
        unitOf[seq] = units.count
        units.append([seq])
      }
    }
    return units
  }
}

/// Replays candidate recordings of a timeline: some of its actions, from its initial state.
private struct Candidate<R: Reducer> where R.State: Decodable & Equatable, R.Action: Decodable {
  let timeline: Timeline<R>
  let condition: ShrinkCondition
  let reference: Replayer<Reduce<R.State, R.Action>>?
  /// The actions, decoded once.
  let actions: Cache<R.Action>
  /// The steps whose effects could feed actions back when the whole recording was replayed (the
  /// first candidate): a candidate in which one of them no longer can, but keeps what it fed
  /// back, could not happen.
  let feedingInFull = Box<Set<Int>?>(nil)

  init(
    timeline: Timeline<R>, condition: ShrinkCondition,
    reference: Replayer<Reduce<R.State, R.Action>>?
  ) {
    self.timeline = timeline
    self.condition = condition
    self.reference = reference
    self.actions = Cache(recording: timeline.recording)
  }

  struct Failure {
    let step: Int
    let kind: ShrinkFailure
  }

  /// Where replaying `steps` first fails the condition, or `nil` when it does not, or when the
  /// candidate could not happen: an action in it was fed back by an effect its trigger no
  /// longer starts there (ddmin's "unresolved", which counts as not failing).
  func failure(replaying steps: [Int]) throws -> Failure? {
    let replayer = self.timeline.replayer
    var state = try replayer.initialState()
    var recordedState = state
    if case let .watch(condition) = self.condition, condition.holds(in: state) {
      return Failure(step: 0, kind: .condition)
    }
    // The steps whose effects, in this candidate, could feed actions back.
    var feeding: Set<Int> = []
    let full = self.feedingInFull.value
    defer { if full == nil { self.feedingInFull.value = feeding } }
    for step in steps {
      let action = try self.actions[step]
      if case let .effect(parent) = action.origin, let full, full.contains(parent),
        !feeding.contains(parent)
      {
        return nil
      }
      let replayed = replayer.apply(action, to: &state)
      switch self.condition {
      case .diverges:
        guard let reference = self.reference else { return nil }
        let recorded = reference.apply(action, to: &recordedState)
        // NB: What the recorded behaviour would have started decides what it could feed back.
        if recorded.effects.canFeedBack { feeding.insert(step) }
        if recordedState != state {
          let path = StatePath.firstDifference(recordedState, state) ?? StatePath(components: [])
          return Failure(step: step, kind: .state(path))
        }
        if !recorded.effects.behavesLike(replayed.effects) {
          return Failure(step: step, kind: .effects)
        }
      case let .reaches(breakpoint, condition):
        if replayed.effects.canFeedBack { feeding.insert(step) }
        if breakpoint.matches(action.action), condition?.holds(in: state) ?? true {
          return Failure(step: step, kind: .condition)
        }
      case let .watch(condition):
        if replayed.effects.canFeedBack { feeding.insert(step) }
        if condition.holds(in: state) { return Failure(step: step, kind: .condition) }
      }
    }
    return nil
  }

  /// The states (as JSON) and effects of the recorded behaviour after each of `steps`: the
  /// reference's when there is one, today's otherwise.
  func recordedRun(
    replaying steps: [Int]
  ) throws -> (states: [Int: [UInt8]], ledger: [Int: JSONValue?]) {
    var states: [Int: [UInt8]] = [:]
    var ledger: [Int: JSONValue?] = [:]
    var state = try self.timeline.replayer.initialState()
    for step in steps {
      let action = try self.actions[step]
      let effects =
        self.reference?.apply(action, to: &state).effects
        ?? self.timeline.replayer.apply(action, to: &state).effects
      ledger[step] = .some(effects.ledgerJSON)
      guard let encodable = state as? any Encodable else {
        throw TimelineError.stateNotEncodable(type: recordedTypeName(R.State.self))
      }
      states[step] = try CompactJSONCodec().encode(encodable)
    }
    return (states, ledger)
  }
}

/// Decoded actions, each decoded once.
private final class Cache<Action: Decodable> {
  let recording: Recording
  private var actions: [Int: RecordedAction<Action>] = [:]

  init(recording: Recording) {
    self.recording = recording
  }

  subscript(step: Int) -> RecordedAction<Action> {
    get throws {
      if let action = self.actions[step] { return action }
      let action = try self.recording.action(step, as: Action.self)
      self.actions[step] = action
      return action
    }
  }
}

/// A value a copied struct shares.
private final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
