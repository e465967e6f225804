import ConcurrencyExtras
import Testing

/// Runs `body`, which is expected to report issues, and returns the text of each, in order.
///
/// The issues are known issues, so they do not fail the test; a `body` that reports none fails
/// it, and so does a caller whose expected texts differ.
@MainActor
public func recordedIssues(_ body: @MainActor () async -> Void) async -> [String] {
  let messages = LockIsolated<[String]>([])
  await withKnownIssue {
    await body()
  } matching: { issue in
    messages.withValue { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
    return true
  }
  return messages.value
}
