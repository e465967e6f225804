import Foundation
import TestSupport
import Testing

/// `replay verify` on a recording whose effect ledger says something today's reducer no longer
/// does, through the real `replay`.
@Suite struct EffectCommandTests {
  @Test func verifyShowsTheFirstStepWhoseEffectsDiffer() async throws {
    var records = try HostileRecordingTests.records()
    // The counter's third action asked for a fact: make the recording say it started nothing,
    // as a recording made before that request existed would.
    let third = try #require(
      records.firstIndex { $0["kind"] as? String == "action" && $0["seq"] as? Int == 3 })
    #expect(records[third]["yields"] != nil)
    records[third].removeValue(forKey: "yields")
    let directory = TemporaryDirectory()
    try HostileRecordingTests.framed(records).write(to: directory.file("counter.actionlog"))
    let result = try await run("replay", ["verify", "counter.actionlog"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.errors == "")
    #expect(
      result.output == """
        The replay's effects differ from the recording at step 3: today's reducer returns other \
        effects for the same action.

          Action at step 3 (+1.050s):
            CounterFeature.Action.factButtonTapped

          Effects:
            − none
            + run at CounterFeature.swift:57

          The states still agree at step 3: only what the reducer starts changed.

        (Recorded: −, Replayed: +)

        """)
  }
}
