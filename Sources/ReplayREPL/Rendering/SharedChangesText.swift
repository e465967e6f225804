import ActionLog
import Foundation
import TimeTravel

/// What the REPL and `info` say of a recording's shared values: the changes its reducers did
/// not make, each shown before the action it came before.
struct SharedValueChanges {
  /// The changes, by the action they follow.
  let bySeq: [Int: [(name: String, source: RecordedShared.Source, value: JSONValue)]]
  /// In a child's recording cut from an app's, what the rest of the app wrote into the child's
  /// state, by the action it follows, with the app's step that wrote it when known.
  let writes: [Int: [(update: [JSONPatchOperation], appStep: Int?)]]

  init(_ recording: Recording) {
    var bySeq: [Int: [(name: String, source: RecordedShared.Source, value: JSONValue)]] = [:]
    var writes: [Int: [(update: [JSONPatchOperation], appStep: Int?)]] = [:]
    var appSteps = StepList.steps(recording.header.metadata["appWrites"] ?? "")?[...] ?? []
    for record in (try? recording.sharedRecords()) ?? [] {
      switch record.change {
      case let .value(name, source, value):
        bySeq[record.seq, default: []].append((name, source, value))
      case let .stateWritten(update):
        writes[record.seq, default: []].append((update, appSteps.popFirst()))
      case .places, .actionPlaces:
        continue
      }
    }
    self.bySeq = bySeq
    self.writes = writes
  }

  var isEmpty: Bool { self.bySeq.isEmpty && self.writes.isEmpty }

  /// The lines shown under step `step`: what changed between the action before it and it.
  func lines(before step: Int, style: Style) -> [String] {
    let changes = (self.bySeq[step - 1] ?? []).map { change in
      let value = oneLine(change.value.text)
      let shown = value.count > 120 ? String(value.prefix(119)) + "…" : value
      return "   \(style.emphasis("↳ \(Self.wording(change.source))")) \(change.name) = \(shown)"
    }
    let writes = (self.writes[step - 1] ?? []).map { write in
      let at = write.appStep.map { " (app step \($0))" } ?? ""
      let shown = write.update.map(Self.describe).joined(separator: ", ")
      let line = shown.count > 160 ? String(shown.prefix(159)) + "…" : shown
      return "   \(style.emphasis("↳ written by the app, before it\(at):")) \(line)"
    }
    return changes + writes
  }

  /// `name = "Grace Hopper"`, `items[2] removed`: one operation of a write, in state paths.
  static func describe(_ operation: JSONPatchOperation) -> String {
    var path = ""
    for token in operation.path {
      if let index = Int(token) {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? token : ".\(token)"
      }
    }
    if path.isEmpty { path = "the state" }
    switch operation.op {
    case .remove: return "\(path) removed"
    default:
      let value = oneLine(operation.value?.text ?? "null")
      return "\(path) = \(value.count > 60 ? String(value.prefix(59)) + "…" : value)"
    }
  }

  /// `1 change from outside the app, 2 read from their keys (.fileStorage(settings.json))`.
  var summary: String? {
    guard !self.bySeq.isEmpty else { return nil }
    let all = self.bySeq.values.flatMap { $0 }
    var parts: [String] = []
    for (source, words) in [
      (RecordedShared.Source.outside, "from outside the app"),
      (.app, "from elsewhere in the app"), (.load, "read from their keys"),
    ] {
      let count = all.filter { $0.source == source }.count
      if count > 0 { parts.append("\(counted(count, "change")) \(words)") }
    }
    let names = Set(all.map(\.name)).sorted().joined(separator: ", ")
    return "Shared values: \(parts.joined(separator: ", ")) (\(names))."
  }

  /// How a change is introduced.
  static func wording(_ source: RecordedShared.Source) -> String {
    switch source {
    case .outside: "changed outside the app, before it:"
    case .app: "changed elsewhere in the app, before it:"
    case .load: "read from its key:"
    }
  }
}

/// What `info` says of a child's recording cut from an app's: where it came from, and the app's
/// writes it holds as inputs; `nil` for any other recording.
func childScopeSummary(_ recording: Recording) -> String? {
  let metadata = recording.header.metadata
  guard let scope = metadata["scope"] else { return nil }
  var text = "A child's recording: \(metadata["scopedFrom"] ?? scope)"
  if let steps = metadata["appSteps"], !steps.isEmpty {
    text += "; its actions are app steps \(steps.replacingOccurrences(of: ",", with: ", "))"
  }
  text += "."
  if let writes = metadata["appWrites"].flatMap(StepList.steps), !writes.isEmpty {
    text +=
      "\nInputs: \(counted(writes.count, "write")) of the rest of the app to its state (app step"
      + (writes.count == 1 ? " " : "s ") + writes.map(String.init).joined(separator: ", ")
      + "), each applied before the step that follows it."
  }
  return text
}
