import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TestSupport
import Testing
import TimeTravel

/// Steps replayed in a batch (the dependencies installed once) are the steps replayed one by
/// one: the same states, the same recorded values read, the same reads beyond them.
@Suite struct ReplayBatchTests {
  @Test func aBatchReplaysAsSingleStepsDo() throws {
    let recording = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("todos.actionlog"))
    let replayer = Replayer(recording: recording, reducer: Todos())
    var single = try replayer.initialState()
    var batched = try replayer.initialState()
    var singleSteps: [ReplayedStep] = []
    var batchedSteps: [ReplayedStep] = []
    for seq in 1...recording.count { singleSteps.append(try replayer.apply(seq, to: &single)) }
    try replayer.batch {
      for seq in 1...recording.count { batchedSteps.append(try replayer.apply(seq, to: &batched)) }
    }
    #expect(single == batched)
    #expect(singleSteps.map(\.overruns) == batchedSteps.map(\.overruns))
    #expect(singleSteps.map(\.unread) == batchedSteps.map(\.unread))
    #expect(batchedSteps.allSatisfy { $0.isFaithful })

    // A step that reads more than was recorded says so in a batch too: an action that is
    // not in the recording reads a UUID that nothing recorded.
    var diverted = single
    let step = replayer.batch {
      replayer.apply(unrecorded: .addTodoButtonTapped, to: &diverted)
    }
    #expect(step.overruns == ["uuid": 1])
  }
}
