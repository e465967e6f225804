import ActionLog
import Foundation

/// What the REPL and `info` say of a recording's shared values: the changes its reducers did
/// not make, each shown before the action it came before.
struct SharedValueChanges {
  /// The changes, by the action they follow.
  let bySeq: [Int: [(name: String, source: RecordedShared.Source, value: JSONValue)]]

  init(_ recording: Recording) {
    var bySeq: [Int: [(name: String, source: RecordedShared.Source, value: JSONValue)]] = [:]
    for record in (try? recording.sharedRecords()) ?? [] {
      if case let .value(name, source, value) = record.change {
        bySeq[record.seq, default: []].append((name, source, value))
      }
    }
    self.bySeq = bySeq
  }

  var isEmpty: Bool { self.bySeq.isEmpty }

  /// The lines shown under step `step`: what changed between the action before it and it.
  func lines(before step: Int, style: Style) -> [String] {
    (self.bySeq[step - 1] ?? []).map { change in
      let value = oneLine(change.value.text)
      let shown = value.count > 120 ? String(value.prefix(119)) + "…" : value
      return "   \(style.emphasis("↳ \(Self.wording(change.source))")) \(change.name) = \(shown)"
    }
  }

  /// `1 change from outside the app, 2 read from their keys (.fileStorage(settings.json))`.
  var summary: String? {
    guard !self.isEmpty else { return nil }
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
