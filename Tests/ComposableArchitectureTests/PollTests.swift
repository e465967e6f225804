@testable import ComposableArchitecture
import Foundation
import Testing

/// The waiting behind `TestStore.receive` and `finish`: its timeout counts the time in which
/// tasks could run, so a loaded machine does not fail a test whose effect was only kept waiting.
@MainActor
@Suite struct PollTests {
  @Test func timeInWhichNothingCouldRunDoesNotCount() async {
    // The first rounds hold the main actor for 30 ms each, as a busy machine would hold it:
    // 240 ms in all, far past the 50 ms timeout, yet little of it is time that tasks could run.
    var calls = 0
    let held = await _poll(timeout: .milliseconds(50)) {
      calls += 1
      if calls <= 8 { usleep(30_000) }
      return calls > 8
    }
    #expect(held)
  }

  @Test func aRoundThatFoundTheMachineBusyCountsAsTheRoundLimit() {
    // What the end of a test store's test waits with, for effects still returning.
    var time = _RunnableTime()
    usleep(30_000)
    time.endRound()
    #expect(time.counted == _RunnableTime.roundLimit)
  }

  @Test func aConditionThatNeverHoldsTimesOut() async {
    let start = ContinuousClock.now
    let held = await _poll(timeout: .milliseconds(100)) { false }
    #expect(!held)
    // Counted time is never more than the time that passed.
    #expect(ContinuousClock.now - start >= .milliseconds(100))
  }
}
