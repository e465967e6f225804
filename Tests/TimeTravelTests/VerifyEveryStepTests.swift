import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A tally whose every step is recorded with its update, for verifying long runs at every step
/// while their actions are decoded ahead. `slip` makes a later version of it, where a 7 adds 8.
@Reducer struct Tally {
  @ObservableState struct State: Equatable, Codable { var total = 0 }
  enum Action: Equatable, Codable { case add(Amount) }
  var slip: Int? = nil
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(amount):
        state.total += amount.value == self.slip ? amount.value + 1 : amount.value
        return .none
      }
    }
  }
}

/// An amount, written as a number; one above 255 is recorded, but no longer read back.
struct Amount: Equatable, Codable {
  var value: Int
  init(_ value: Int) { self.value = value }
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.value = try container.decode(Int.self)
    guard self.value <= 255 else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\(self.value) is more than a byte")
    }
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.value)
  }
}

@Suite struct VerifyEveryStepTests {
  /// A tally recording of `amounts`, every step with its update.
  @MainActor private func recording(_ amounts: [Int]) throws -> (Recording, TemporaryDirectory) {
    let folder = TemporaryDirectory()
    let url = folder.url.appendingPathComponent("tally.actionlog")
    let recorder = try RecorderOf<Tally>(
      url: url, feature: "tally", initialState: Tally.State(),
      options: LogWriter.Options(syncPolicy: .never))
    let store = Store(initialState: Tally.State()) { Tally().recording(to: recorder) }
    for amount in amounts { store.send(.add(Amount(amount))) }
    try recorder.close()
    let recording = try Recording(contentsOf: url)
    #expect(recording.header.hasStepUpdates)
    return (recording, folder)
  }

  /// `amounts` of 1, with `changes` at their steps (from 1).
  private func amounts(_ count: Int, _ changes: [Int: Int]) -> [Int] {
    (1...count).map { changes[$0] ?? 1 }
  }

  @Test @MainActor func aLongRunThatAgreesVerifies() throws {
    let (recording, folder) = try self.recording(self.amounts(3_000, [1_500: 7]))
    defer { withExtendedLifetime(folder) {} }
    let timeline = try Timeline(recording: recording, reducer: Tally(), feature: "tally")
    #expect(try timeline.verify() == nil)
  }

  @Test @MainActor func theFirstStepThatDiffersIsReportedWithItsStates() throws {
    let (recording, folder) = try self.recording(
      self.amounts(3_000, [1_500: 7, 2_000: 7, 2_999: 7]))
    defer { withExtendedLifetime(folder) {} }
    let timeline = try Timeline(recording: recording, reducer: Tally(slip: 7), feature: "tally")
    let divergence = try #require(try timeline.verify())
    #expect(divergence.checkpoint == 1_500)
    #expect(divergence.lastAgreement == 1_499)
    #expect(divergence.comparedEveryStep)
    #expect(divergence.diff?.contains("total: 1506") == true)
    #expect(divergence.diff?.contains("total: 1507") == true)
  }

  @Test @MainActor func aStepThatDiffersComesBeforeALaterActionThatDoesNotDecode() throws {
    let (recording, folder) = try self.recording(self.amounts(3_000, [1_500: 7, 2_500: 300]))
    defer { withExtendedLifetime(folder) {} }
    let timeline = try Timeline(recording: recording, reducer: Tally(slip: 7), feature: "tally")
    let divergence = try #require(try timeline.verify())
    #expect(divergence.checkpoint == 1_500)

    // The other way round, the action that does not decode comes first.
    let (earlier, earlierFolder) = try self.recording(
      self.amounts(3_000, [1_200: 300, 1_500: 7]))
    defer { withExtendedLifetime(earlierFolder) {} }
    let failing = try Timeline(recording: earlier, reducer: Tally(slip: 7), feature: "tally")
    #expect {
      try failing.verify()
    } throws: { error in
      "\(error)".contains("300 is more than a byte")
    }
  }
}
