import ActionLog
import ComposableArchitecture
import Foundation

/// What a replay does with a recording's shared values: each replay runs in storage of its own
/// (a ``ComposableArchitecture/_SharedReplayScope``), so no user file or default is read or
/// written; a decoded state's places that shared one value share it again; and the changes the
/// recorded reducers did not make are applied where the recording says they happened.
final class SharedReplay: @unchecked Sendable {
  // NB: Unchecked: a replayer is used from one thread at a time, as its reducer is.
  private let recording: Recording
  private var loaded: (values: [Int: [RecordedShared]], places: [Int: [String: [String]]])?
  /// The scope of the state being replayed.
  private(set) var scope = _SharedReplayScope()
  /// The last action applied to it, or the step it was decoded at.
  private var lastApplied = 0

  init(recording: Recording) {
    self.recording = recording
  }

  private func records() throws -> (
    values: [Int: [RecordedShared]], places: [Int: [String: [String]]]
  ) {
    if let loaded { return loaded }
    var values: [Int: [RecordedShared]] = [:]
    var places: [Int: [String: [String]]] = [:]
    if self.recording.hasSharedRecords {
      for record in try self.recording.sharedRecords() {
        switch record.change {
        case let .places(found): places[record.seq] = found
        case .value: values[record.seq, default: []].append(record)
        }
      }
    }
    self.loaded = (values, places)
    return (values, places)
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

  /// Runs `body` in the scope, applying nothing: an action that is not in the recording.
  func runUnrecorded<R>(_ body: () throws -> R) rethrows -> R {
    try self.scope.run(body)
  }
}
