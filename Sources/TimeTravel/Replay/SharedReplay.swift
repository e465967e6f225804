import ActionLog
import ComposableArchitecture
import Foundation
import StepChanges

/// What a replay does with a recording's shared values: each replay runs in storage of its own
/// (a ``ComposableArchitecture/_SharedReplayScope``), so no user file or default is read or
/// written; a decoded state's places that shared one value share it again; and the changes the
/// recorded reducers did not make are applied where the recording says they happened.
final class SharedReplay: @unchecked Sendable {
  // NB: Unchecked: a replayer is used from one thread at a time, as its reducer is.
  private let recording: Recording
  private var loaded: Records?
  /// The scope of the state being replayed.
  private(set) var scope = _SharedReplayScope()
  /// The last action applied to it, or the step it was decoded at.
  private var lastApplied = 0

  init(recording: Recording) {
    self.recording = recording
  }

  private struct Records {
    var values: [Int: [RecordedShared]] = [:]
    /// The places of the state after each action that says them.
    var places: [Int: [String: [String]]] = [:]
    /// The places of the shared values each action that carries some carries.
    var actionPlaces: [Int: [String: [String]]] = [:]
    /// What the rest of the app wrote into the state after each action that says so.
    var writes: [Int: [[JSONPatchOperation]]] = [:]
  }

  private func records() throws -> Records {
    if let loaded { return loaded }
    var records = Records()
    if self.recording.hasSharedRecords {
      for record in try self.recording.sharedRecords() {
        switch record.change {
        case let .places(found): records.places[record.seq] = found
        case let .actionPlaces(found): records.actionPlaces[record.seq] = found
        case .value: records.values[record.seq, default: []].append(record)
        case let .stateWritten(update): records.writes[record.seq, default: []].append(update)
        }
      }
    }
    self.loaded = records
    return records
  }

  /// Decodes action `seq` in the scope: the shared values it carries join the scope's values
  /// it carried in the app (a pushed screen's state holding a part of the list's), rather than
  /// being values of their own.
  func decodeAction<Action>(_ seq: Int, _ decode: () throws -> Action) throws -> Action {
    guard let places = try self.records().actionPlaces[seq] else { return try decode() }
    // NB: By `Codable` alone, whose coding paths are whole (in the record, under `value`).
    return try _JSONGeneratedDecoding.$isEnabled.withValue(false) {
      try self.scope.decodeAction(holders: places, under: "/value", decode)
    }
  }

  /// Whether an action decodes alone, on any thread: no action carries shared values to join
  /// to the state's, and no scope is installed for decoding to join.
  var decodesActionsAlone: Bool {
    !_SharedReplayScope.isInstalled && (try? self.records().actionPlaces.isEmpty) == true
  }

  /// Decodes the state at `step` (the initial state at 0) in a new scope, its shared places
  /// joined as the recording says.
  func decode<State>(at step: Int, _ decode: () throws -> State) throws -> State {
    let places = try self.records().places[step] ?? [:]
    let scope = _SharedReplayScope()
    // NB: Decoded in its record: the header's `initialState`, a checkpoint's `value`.
    let state = try scope.decode(
      holders: places, under: step == 0 ? "/initialState" : "/value", decode)
    self.scope = scope
    self.lastApplied = step
    return state
  }

  /// Continues from a state whose scope is `scope`, at `step`.
  func resume(scope: _SharedReplayScope, at step: Int) {
    self.scope = scope
    self.lastApplied = step
  }

  /// Applies the recorded changes between the last action applied and action `seq`, then runs
  /// `body` (the reducer) in the scope.
  func run<R>(before seq: Int, _ body: () throws -> R) throws -> R {
    let values = try self.records().values
    if !values.isEmpty {
      let from = seq > self.lastApplied ? self.lastApplied : seq - 1
      for step in max(0, from)..<max(0, seq) {
        for record in values[step] ?? [] {
          guard case let .value(name, source, value) = record.change else { continue }
          try self.scope.receive(
            name: name, json: Data(value.text.utf8), onlyIfAbsent: source == .load)
        }
      }
    }
    self.lastApplied = seq
    return try self.scope.run(body)
  }

  /// Whether the recording holds writes of the rest of the app into the state (a child's
  /// recording cut from an app's).
  var hasStateWrites: Bool {
    (try? self.records().writes.isEmpty == false) ?? false
  }

  /// Applies to `state` what the rest of the app wrote into it after the last action applied
  /// and before action `seq`: the state is written as JSON, patched, and decoded again in a new
  /// scope with the places the recording last gave, as a checkpoint is.
  func applyWrites<State: Decodable>(before seq: Int, to state: inout State) throws {
    let records = try self.records()
    guard !records.writes.isEmpty else { return }
    let from = seq > self.lastApplied ? self.lastApplied : seq - 1
    let updates = (max(0, from)..<max(0, seq)).flatMap { records.writes[$0] ?? [] }
    guard !updates.isEmpty else { return }
    let codec = CompactJSONCodec()
    var json = try JSONValue.parse(try codec.encode(_ReflectedValue(state)))
    for update in updates { json = try json.applying(update) }
    let bytes = json.bytes
    let last = records.places.keys.filter { $0 < seq }.max()
    let places = last.flatMap { records.places[$0] } ?? [:]
    let scope = _SharedReplayScope()
    state = try scope.decode(holders: places) {
      try bytes.withUnsafeBytes { try codec.decode(State.self, from: $0) }
    }
    self.scope = scope
  }

  /// Runs `body` in the scope, applying nothing: an action that is not in the recording.
  func runUnrecorded<R>(_ body: () throws -> R) rethrows -> R {
    try self.scope.run(body)
  }
}
