@_spi(Internals) import ActionLog
import Foundation
import StepChanges

/// One child feature's recording, cut out of an app's: the child's state where it first exists,
/// the actions that reached it (sent to it, or fed back by its own effects), and, as inputs that
/// are not actions, the writes the rest of the app made to its state between them. It replays
/// with the child's reducer alone.
///
/// It works on recorded values: every step's state (a recording with step updates, or states a
/// replay computes) and the actions' JSON, read as the architecture encodes presentations,
/// stacks and identified actions (see ``ChildRoute``).
public struct ChildRecording: Sendable {
  /// What the child's recording is of: the feature that re-runs it, and its types' names.
  public struct Names: Sendable, Equatable {
    public var feature: String
    public var stateType: String
    public var actionType: String

    /// Creates names.
    public init(feature: String, stateType: String, actionType: String) {
      self.feature = feature
      self.stateType = stateType
      self.actionType = actionType
    }
  }

  /// How the child's time in the app ended.
  public struct Ending: Sendable, Equatable {
    /// The app step after which the child was gone.
    public var step: Int
    /// What happened: `popped`, `dismissed`, or `removed by <action>`.
    public var how: String
    /// What that step cancelled, as the app's effect ledger says.
    public var cancelled: [String]
  }

  /// The recording written.
  public let recording: Recording
  /// The app step the child's recording starts after.
  public let start: Int
  /// The app step of each of the child's actions.
  public let appSteps: [Int]
  /// The writes of the rest of the app to the child's state, by the app step that made them.
  public let outsideWrites: [Int]
  /// How the child ended, when it did within the recording.
  public let ending: Ending?
  /// The child's presentations in the app's recording: the app steps each one spans.
  public let presentations: [ClosedRange<Int>]
  /// The path, with identities in place of indices.
  public let path: StatePath

  /// Cuts the child at `path` out of `app` and writes its recording to `url`.
  ///
  /// - Parameters:
  ///   - path: The child's place in the app's state, as the REPL writes state paths.
  ///   - from: Start from the child's state after this app step; `nil` starts where it first
  ///     exists.
  ///   - presentation: Which presentation of a child that comes and goes, from 1; ignored with
  ///     `from`.
  ///   - metadata: Facts added to the header's metadata.
  ///   - states: The app's state after a step, as JSON, asked for in increasing order; by
  ///     default the recorded ones (a recording with step updates).
  ///   - choose: Picks the presentation (its index in those given) in place of `presentation`.
  ///   - names: The child's feature and types, given the app step it starts after and the path
  ///     with identities in place of indices.
  /// - Throws: ``ChildRecordingError`` when the path is never in the state or the recording
  ///   holds no state at every step; ``ActionLog/ActionLogError`` when it cannot be read or the
  ///   file cannot be written; what `names` throws.
  public static func export(
    _ app: Recording, path: StatePath, from: Int? = nil, presentation: Int = 1,
    metadata extra: [String: String] = [:], to url: URL,
    states: ((_ step: Int) throws -> JSONValue)? = nil,
    fileSystem: any LogFileSystem = .posix,
    choosing choose: ((_ presentations: [ClosedRange<Int>]) -> Int)? = nil,
    names: (_ start: Int, _ path: StatePath) throws -> Names
  ) throws -> ChildRecording {
    guard states != nil || app.hasEveryState else {
      throw ChildRecordingError.noStepStates(feature: app.header.feature)
    }
    // NB: Walked forward twice (where the child is, then its span), each from where it starts.
    var recorded = RecordedStates(app)
    let state: (Int) throws -> JSONValue = states ?? { try recorded.state(after: $0) }
    var route = ChildRoute(path)

    let presentations = try Self.presentations(of: route, in: app, state: state)
    let span = try Self.span(
      of: presentations, path: path, from: from, presentation: presentation, choose: choose)
    if states == nil { recorded = RecordedStates(app) }
    let startState = try state(span.lowerBound)
    route.fixIdentities(in: startState)
    var child = route.locate(in: startState)!
    let startTime: Int64 =
      span.lowerBound == 0 ? 0 : app.time(ofAction: span.lowerBound).nanoseconds

    let header = Self.header(
      of: app, named: try names(span.lowerBound, route.path), route: route, child: child,
      start: span.lowerBound, startTime: startTime, extra: extra)
    var composer = RecordingComposer(header: header, initialState: child.value)

    // Shared values: the places under the child, as pointers into it.
    var shared = try SharedTranslation(app: app)
    if let places = shared.places(atOrBefore: span.lowerBound, below: child.pointer) {
      try composer.appendShared(.places(places))
    }

    var appSteps: [Int] = []
    var outsideWrites: [Int] = []
    var sites = SiteRenumbering(app.callSitesByNumber)
    var ending: Ending?
    let interval = max(1, app.header.checkpointInterval)
    var childSeq: [Int: Int] = [:]
    var wroteSinceStep = false
    var step = span.lowerBound + 1
    while step <= app.count {
      let after = route.locate(in: try state(step))
      // NB: Most of an app's actions go elsewhere: one whose bytes do not start with the
      // route's first case is not parsed at all.
      // NB: Read as recorded unless the recording is read through migrations, once a step.
      let bytes = app.appliedMigrationSteps.isEmpty ? try app.actionValueBytes(step) : nil
      func actionValue() throws -> JSONValue {
        if let bytes { return try JSONValue.parse(bytes) }
        return try app.action(step, as: JSONValue.self).action
      }
      let mayReach = after == nil || bytes.map(route.mayReach) ?? true
      let routed = mayReach ? route.route(try actionValue()) : .elsewhere
      guard let after else {
        ending = Ending(
          step: step, how: Self.how(routed, actionValue: try? actionValue()),
          cancelled: Self.cancellations(in: try app.recordedEffects(ofAction: step)))
        break
      }
      try shared.appendValues(after: step - 1, to: &composer)
      if case let .action(value, pointer) = routed {
        let site = try sites.number(for: app.siteNumber(ofAction: step), writingTo: &composer)
        let recordedAction = try app.action(step, as: Unread.self)
        let origin: RecordedOrigin? =
          switch recordedAction.origin {
          case .send: .send
          case let .effect(parent): childSeq[parent].map { RecordedOrigin.effect(parent: $0) }
          }
        try composer.appendAction(
          RecordingComposer.Action(
            origin: origin,
            time: app.time(ofAction: step).nanoseconds - startTime,
            uses: recordedAction.captured,
            value: value,
            update: child.value.changes(to: after.value),
            site: site))
        childSeq[step] = composer.count
        appSteps.append(step)
        if let places = shared.actionPlaces(of: step, below: pointer) {
          try composer.appendShared(.actionPlaces(places))
        }
        // NB: A checkpoint after the first step that follows the app's writes pins what they
        // wrote: a replay that misses them differs there.
        if composer.count % interval == 0 || wroteSinceStep {
          wroteSinceStep = false
          try composer.appendCheckpoint(after.value)
          if let places = shared.places(atOrBefore: step, below: after.pointer) {
            try composer.appendShared(.places(places))
          }
        }
      } else if after.value != child.value {
        try composer.appendShared(.stateWritten(update: child.value.changes(to: after.value)))
        outsideWrites.append(step)
        wroteSinceStep = true
      }
      child = after
      step += 1
    }
    if let ending {
      try composer.appendNote(
        "the child was \(ending.how) at app step \(ending.step)"
          + (ending.cancelled.isEmpty
            ? "" : ", which cancelled \(ending.cancelled.joined(separator: ", "))"))
    }
    let endTime =
      (ending.map { app.time(ofAction: $0.step).nanoseconds }
        ?? (app.count == 0 ? 0 : app.time(ofAction: app.count).nanoseconds)) - startTime
    composer.header.metadata["appSteps"] = StepList.text(appSteps)
    if !outsideWrites.isEmpty {
      composer.header.metadata["appWrites"] = StepList.text(outsideWrites)
    }
    let written = try composer.write(to: url, endingAt: max(0, endTime), fileSystem: fileSystem)
    return ChildRecording(
      recording: written, start: span.lowerBound, appSteps: appSteps,
      outsideWrites: outsideWrites, ending: ending, presentations: presentations, path: route.path)
  }

  /// The child's header: its feature and types, the app's redactions below it, and metadata
  /// saying where it was cut from.
  private static func header(
    of app: Recording, named: Names, route: ChildRoute,
    child: (value: JSONValue, pointer: [String]), start: Int, startTime: Int64,
    extra: [String: String]
  ) -> LogHeader {
    var header = app.header
    header.feature = named.feature
    header.stateType = named.stateType
    header.actionType = named.actionType
    // NB: The app's schema version numbers the app's types; the child's values are as the app
    // recorded them, read at the child's own version from 1 on.
    header.schemaVersion = 1
    header.migration = nil
    header.hasStepUpdates = true
    header.hasEffectLedger = false
    header.startedAt = app.header.startedAt.addingTimeInterval(Double(startTime) / 1e9)
    header.redactions = Self.redactions(app.header.redactions, below: child.pointer)
    var metadata = app.header.metadata
    let source = app.url?.lastPathComponent ?? "the recording"
    metadata["scope"] = route.path.description
    metadata["scopedFrom"] =
      "\(route.path) in \(source) (feature \(app.header.feature)), recorded from "
      + app.header.startedAtText
    metadata["scopeStart"] = String(start)
    if app.header.schemaVersion > 1 {
      metadata["appSchema"] = String(app.header.schemaVersion)
    }
    if let migration = app.header.migration {
      metadata["appMigrated"] = "from version \(migration.from) by replay migrate"
    } else if !app.appliedMigrationSteps.isEmpty {
      // NB: Read through the app's migrations: the values are the app's current version's.
      metadata["appMigrated"] =
        "from version \(app.header.schemaVersion), read through "
        + counted(app.appliedMigrationSteps.count, "migration step")
    }
    header.metadata = metadata.merging(extra) { $1 }.filter { !$0.value.isEmpty }
    return header
  }

  /// How a child that is gone at a step went.
  private static func how(_ routed: ChildRoute.Routed, actionValue: JSONValue?) -> String {
    switch routed {
    case .popped: "popped"
    case .dismissed: "dismissed"
    case .action, .elsewhere: "removed by \(Self.caseName(of: actionValue ?? .null))"
    }
  }

  /// The app's redactions as paths into the child's state.
  static func redactions(_ app: Redactions, below pointer: [String]) -> Redactions {
    func paths(_ paths: [RedactionPath]) -> [RedactionPath] {
      paths.compactMap { path in
        switch path.below(pointer) {
        case nil: nil
        case .whole: try? RedactionPath("**")
        case let .path(text): try? RedactionPath(text)
        }
      }
    }
    // NB: Action paths name the app's actions, whose shape the child's do not share: a path
    // that reaches into them at any depth is kept.
    return Redactions(
      statePaths: paths(app.state),
      actionPaths: app.actions.filter { $0.description.hasPrefix("**") })
  }

  /// An action's outermost case: `contactTapped`, `path.popFrom`.
  static func caseName(of action: JSONValue) -> String {
    var names: [String] = []
    var value = action
    while case let .object(members) = value, members.count == 1, let (name, inner) = members.first,
      names.count < 4
    {
      if name != "_0" { names.append(name) }
      value = inner
    }
    return names.isEmpty ? "an action" : names.joined(separator: ".")
  }

  /// The identifiers a step's recorded effects cancel.
  static func cancellations(in yields: JSONValue?) -> [String] {
    var found: [String] = []
    func visit(_ value: JSONValue) {
      switch value {
      case let .object(members):
        if case let .string(id)? = members["cancel"] { found.append(id) }
        members.values.forEach(visit)
      case let .array(elements):
        elements.forEach(visit)
      default:
        break
      }
    }
    yields.map(visit)
    return found
  }
}

/// Why a child's recording cannot be cut.
public enum ChildRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The recording has no step updates and no replay computes its states.
  case noStepStates(feature: String)
  /// No step's state holds the path; `names` are the state's top-level names.
  case neverPresent(path: String, names: [String])
  /// The child is not in the state after `step`.
  case absent(path: String, step: Int, presentations: [ClosedRange<Int>])
  /// There is no such presentation.
  case noSuchPresentation(Int, path: String, presentations: [ClosedRange<Int>])

  public var description: String {
    func spans(_ presentations: [ClosedRange<Int>]) -> String {
      presentations.map { "steps \($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
    }
    switch self {
    case let .noStepStates(feature):
      return """
        the recording has no step updates, so its states are known at checkpoints only, and \
        this replay cannot re-run "\(feature)" to compute the others: "replay rerecord" in a \
        replay that has the feature writes it again with them.
        """
    case let .neverPresent(path, names):
      return """
        no step's state has \(path)\(names.isEmpty ? "" : "; the state has \(names.joined(separator: ", "))"). \
        A path is written as the REPL prints states: path[id: 0].detail, destination.addItem, \
        todos[id: …].
        """
    case let .absent(path, step, presentations):
      return """
        \(path) is not in the state after step \(step); it is there in \(spans(presentations)).
        """
    case let .noSuchPresentation(number, path, presentations):
      return """
        there is no presentation \(number) of \(path): it is presented \(presentations.count) \
        time\(presentations.count == 1 ? "" : "s"), in \(spans(presentations)).
        """
    }
  }
}

private func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// A value decoded as nothing: an action record read for its envelope alone.
private struct Unread: Decodable {
  init(from decoder: any Decoder) throws {}
}

/// The call sites of the app's actions, numbered anew in the order the child's actions first
/// name them, each written to the child's recording before the first action that names it.
private struct SiteRenumbering {
  let sites: [Int: CallSite]
  var numbers: [Int: Int] = [:]

  init(_ sites: [Int: CallSite]) {
    self.sites = sites
  }

  /// The child's number for the app's site `number`; `nil` for an action without one.
  mutating func number(for number: Int, writingTo composer: inout RecordingComposer) throws -> Int?
  {
    guard number > 0, let site = self.sites[number] else { return nil }
    if let known = self.numbers[number] { return known }
    let new = self.numbers.count + 1
    self.numbers[number] = new
    try composer.appendSite(new, site)
    return new
  }
}
