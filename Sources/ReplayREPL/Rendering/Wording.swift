@_spi(Internals) import ActionLog
import Foundation
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
