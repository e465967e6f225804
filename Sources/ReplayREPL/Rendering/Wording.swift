@_spi(Internals) import ActionLog
import Foundation
import StepChanges
import TimeTravel

// How replay words what a recording holds: counts, times, dates, origins, redactions.

/// What a recording's redaction manifest lists, on one line, or `nil` when nothing is redacted.
func redactionSummary(_ redactions: Redactions) -> String? {
  var parts: [String] = []
  if !redactions.state.isEmpty {
    parts.append("state " + redactions.state.map(\.description).joined(separator: ", "))
  }
  if !redactions.actions.isEmpty {
    parts.append("actions " + redactions.actions.map(\.description).joined(separator: ", "))
  }
  return parts.isEmpty ? nil : parts.joined(separator: "; ") + " (shown as ‹redacted N›)"
}

/// `1 checkpoint`, `3 checkpoints`.
func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// `the checkpoint`, `all 3 checkpoints`.
func everyCheckpoint(_ count: Int) -> String {
  count == 1 ? "the checkpoint" : "all \(count) checkpoints"
}

/// What a verification that passed compared: `every step of 54 actions` for a recording with
/// step updates, `all 2 checkpoints of 54 actions` otherwise.
func whatIsReproduced(_ recording: Recording, everyStep: Bool) -> String {
  everyStep && recording.header.hasStepUpdates
    ? "every step of \(recording.count) \(recording.count == 1 ? "action" : "actions")"
    : "\(everyCheckpoint(recording.checkpoints.count)) of \(recording.count) actions"
}

/// `2025-11-22T02:53:20.000Z`.
func iso8601(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  return formatter.string(from: date)
}

/// `48.650s`.
func seconds(_ duration: Duration) -> String {
  duration.secondsText
}

/// Where an action came from, as the tools show it: `send` or `effect ← 12`.
func originText(_ origin: RecordedOrigin) -> String {
  switch origin {
  case .send: "send"
  case let .effect(parent): "effect ← \(parent)"
  }
}

/// Where an action came from, with the line that sent it when recorded: `send at
/// TodosView.swift:14`, `effect ← 12 at Todos.swift:80`.
func originText(_ origin: RecordedOrigin, site: CallSite?) -> String {
  guard let site else { return originText(origin) }
  return "\(originText(origin)) at \(site)"
}

/// The version of the feature a recording holds, when there is something to say about it: a
/// version above 1, a migration it went through, or migrations it is read through. `nil` for a
/// recording at version 1 of a feature at version 1.
func versionSummary(_ recording: Recording, _ catalog: FeatureCatalog) -> String? {
  let header = recording.header
  var parts: [String] = []
  if header.schemaVersion != 1 || header.migration != nil {
    parts.append("\(header.schemaVersion)")
  }
  if let migration = header.migration {
    parts.append(
      "migrated from \(migration.from) with \(migration.steps.joined(separator: ", "))")
  }
  if let feature = catalog.feature(for: header),
    feature.schema.version != header.schemaVersion
  {
    let steps = (try? recording.migrated(to: feature.schema).appliedMigrationSteps) ?? []
    if parts.isEmpty { parts.append("\(header.schemaVersion)") }
    parts.append(
      feature.schema.version < header.schemaVersion
        ? "newer than this replay's \"\(feature.id)\" (version \(feature.schema.version))"
        : steps.isEmpty
          ? "this replay's \"\(feature.id)\" is at \(feature.schema.version), and cannot migrate it"
          : "read at \(feature.schema.version) through \(steps.joined(separator: ", "))"
    )
  }
  return parts.isEmpty ? nil : parts.joined(separator: "; ")
}
