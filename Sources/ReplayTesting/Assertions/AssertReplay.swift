import ActionLog
import ComposableArchitecture
import CustomDump
import Foundation
import IssueReporting
import TimeTravel

/// Re-runs a recording with today's reducer and reports an issue (a test failure in Swift Testing
/// and XCTest) at the first step where the reducer no longer does what the recording shows.
///
/// ```swift
/// @Test func checkingOffTodos() throws {
///   try assertReplay(Bundle.module.url(forResource: "todos", withExtension: "actionlog")!) {
///     Todos()
///   }
/// }
/// ```
///
/// The reducer re-runs every recorded action with the dependency values it read when recorded;
/// effects are not run, since the actions they fed back are in the recording, but what the
/// reducer returns is compared with what the recording says it returned (when it has an effect
/// ledger): a reducer that no longer starts a request, or cancels the wrong effect, fails with
/// both sides. Every recorded checkpoint is compared; the failure names the first step that read
/// its dependencies differently or reported an issue, when there is one before the differing
/// checkpoint.
///
/// - Parameters:
///   - url: The recording (an `.actionlog` file).
///   - feature: The feature the recording must be of; `nil` accepts any name whose state and
///     action types are the reducer's.
///   - dependencies: The dependencies the recording captured.
///   - finalStateOnly: Compare only the state at the end of the recording.
///   - everyStep: Compare the state after every step, when the recording has step updates (the
///     default); `false` compares checkpoints only, which is faster.
///   - normalize: Applied to the recorded and the replayed state before comparing them: clear
///     what may differ without being wrong, such as timestamps.
///   - schema: The feature's version and migrations; by default what the state type declares.
///   - effects: `.ignore` compares states only.
///   - rerecord: How to record the session again, for the failure message.
///   - reducer: The feature's reducer, without its recording modifier.
/// - Throws: When the recording cannot be read at all.
public func assertReplay<R: Reducer>(
  _ url: URL,
  feature: String? = nil,
  schema: FeatureSchema? = nil,
  dependencies: [RecordableDependency] = RecordableDependency.standard,
  finalStateOnly: Bool = false,
  everyStep: Bool = true,
  normalize: (inout R.State) -> Void = { _ in },
  effects: EffectComparison = .compare,
  rerecord: String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  reducer: () -> R
) throws where R.State: Decodable & Equatable, R.Action: Decodable {
  try assertReplay(
    Recording(contentsOf: url),
    feature: feature,
    schema: schema,
    dependencies: dependencies,
    finalStateOnly: finalStateOnly,
    everyStep: everyStep,
    normalize: normalize,
    effects: effects,
    rerecord: rerecord,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column,
    reducer: reducer
  )
}

/// Re-runs an opened recording with today's reducer: see the variant that takes the recording's
/// URL, which this one serves.
public func assertReplay<R: Reducer>(
  _ recording: Recording,
  feature: String? = nil,
  schema: FeatureSchema? = nil,
  dependencies: [RecordableDependency] = RecordableDependency.standard,
  finalStateOnly: Bool = false,
  everyStep: Bool = true,
  normalize: (inout R.State) -> Void = { _ in },
  effects: EffectComparison = .compare,
  rerecord: String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  reducer: () -> R
) throws where R.State: Decodable & Equatable, R.Action: Decodable {
  let name = recording.url?.lastPathComponent ?? "the recording"
  func fail(_ message: String) {
    _reportTestFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  guard recording.ending == .clean || recording.ending == .unterminated else {
    fail(
      """
      \(name) is damaged: it \(recording.ending). Only a whole recording can stand for a \
      regression test: record it again.
      """
    )
    return
  }
  let timeline: Timeline<R>
  do {
    timeline = try Timeline(
      recording: recording,
      reducer: reducer(),
      feature: feature ?? recording.header.feature,
      dependencies: dependencies,
      schema: schema
    )
  } catch let error as TimelineError {
    fail("\(name) cannot be replayed with this reducer. \(error)")
    return
  } catch let error as MigrationError {
    fail("\(name) cannot be replayed with this reducer. \(error)")
    return
  }
  guard
    let divergence = try timeline.verify(
      finalStateOnly: finalStateOnly, everyStep: everyStep, normalizing: normalize,
      effects: effects)
  else { return }
  let redo = rerecord.map { "record it again with \($0)" } ?? "record the session again"
  fail(
    """
    \(name): today's reducer does not reproduce the recording.

    \(divergence.description)

    If the reducer is wrong, fix it. If the new behaviour is intended, \(redo) and commit the new \
    recording.
    """
  )
}

/// `assertReplay` for a reducer whose state and actions are not `Decodable` (written without
/// the macros, saying nothing of `Codable`): they are read from the recording by reflection, as
/// synthesized `Decodable` would read them had they declared it.
@_disfavoredOverload
public func assertReplay<R: Reducer>(
  _ url: URL,
  feature: String? = nil,
  schema: FeatureSchema? = nil,
  dependencies: [RecordableDependency] = RecordableDependency.standard,
  finalStateOnly: Bool = false,
  everyStep: Bool = true,
  normalize: @escaping (inout R.State) -> Void = { _ in },
  effects: EffectComparison = .compare,
  rerecord: String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  reducer: () -> R
) throws where R.State: Equatable {
  try assertReplay(
    Recording(contentsOf: url), feature: feature, schema: schema, dependencies: dependencies,
    finalStateOnly: finalStateOnly, everyStep: everyStep, normalize: normalize,
    effects: effects, rerecord: rerecord, fileID: fileID, filePath: filePath, line: line,
    column: column, reducer: reducer)
}

/// `assertReplay` of an opened recording for a reducer whose state and actions are not
/// `Decodable`.
@_disfavoredOverload
public func assertReplay<R: Reducer>(
  _ recording: Recording,
  feature: String? = nil,
  schema: FeatureSchema? = nil,
  dependencies: [RecordableDependency] = RecordableDependency.standard,
  finalStateOnly: Bool = false,
  everyStep: Bool = true,
  normalize: @escaping (inout R.State) -> Void = { _ in },
  effects: EffectComparison = .compare,
  rerecord: String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  reducer: () -> R
) throws where R.State: Equatable {
  try assertReplay(
    recording, feature: feature, schema: schema ?? .of(R.State.self),
    dependencies: dependencies, finalStateOnly: finalStateOnly, everyStep: everyStep,
    normalize: { normalize(&$0.value) }, effects: effects, rerecord: rerecord, fileID: fileID,
    filePath: filePath, line: line, column: column, reducer: { _ReflectedReducer(reducer()) })
}
