@_spi(Internals) import ActionLog
import Foundation
import StepChanges

// Where a child is in an app's recording, and which of its presentations an export covers.

extension ChildRecording {
  /// The spans of app steps the child is present in: one pass over the states, keeping none
  /// of them.
  static func presentations(
    of route: ChildRoute, in app: Recording, state: (Int) throws -> JSONValue
  ) throws -> [ClosedRange<Int>] {
    var lastState = JSONValue.null
    var presentations: [ClosedRange<Int>] = []
    var presentStart: Int?
    for step in 0...app.count {
      let value = try state(step)
      if step == app.count { lastState = value }
      let present = route.locate(in: value) != nil
      if present, presentStart == nil { presentStart = step }
      if !present, let start = presentStart {
        presentations.append(start...(step - 1))
        presentStart = nil
      }
    }
    if let start = presentStart { presentations.append(start...app.count) }
    guard !presentations.isEmpty else {
      throw ChildRecordingError.neverPresent(
        path: route.path.description, names: Self.names(in: lastState))
    }
    return presentations
  }

  /// The span the export covers: from a step, a chosen presentation, or the one numbered.
  static func span(
    of presentations: [ClosedRange<Int>], path: StatePath, from: Int?, presentation: Int,
    choose: ((_ presentations: [ClosedRange<Int>]) -> Int)?
  ) throws -> ClosedRange<Int> {
    if let from = from {
      guard let found = presentations.first(where: { $0.contains(from) }) else {
        throw ChildRecordingError.absent(
          path: path.description, step: from, presentations: presentations)
      }
      return max(from, found.lowerBound)...found.upperBound
    } else if let choose {
      return presentations[min(max(0, choose(presentations)), presentations.count - 1)]
    }
    guard presentation >= 1, presentation <= presentations.count else {
      throw ChildRecordingError.noSuchPresentation(
        presentation, path: path.description, presentations: presentations)
    }
    return presentations[presentation - 1]
  }

  /// The top-level names of a state, for an error.
  private static func names(in state: JSONValue) -> [String] {
    guard case let .object(members) = state else { return [] }
    return members.keys.sorted()
  }
}
