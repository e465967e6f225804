import ConcurrencyExtras
import Testing

/// Runs `body`, which is expected to report issues, and returns the text of each, in order.
///
/// The issues are known issues, so they do not fail the test; a `body` that reports none fails
/// it, and so does a caller whose expected texts differ. A test store's failure ends with where
/// its run is recorded: left out, unless `keepingWhereTheRunIs`.
@MainActor
public func recordedIssues(
  keepingWhereTheRunIs: Bool = false, _ body: @MainActor () async -> Void
) async -> [String] {
  let messages = LockIsolated<[String]>([])
  await withKnownIssue {
    await body()
  } matching: { issue in
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    // NB: Where the test store's recording of the run is, which its own tests check.
    let withoutRecording =
      message.range(of: "\n\nThe run so far is recorded in ").map {
        String(message[..<$0.lowerBound])
      } ?? message
    messages.withValue { $0.append(keepingWhereTheRunIs ? message : withoutRecording) }
    return true
  }
  return messages.value
}
