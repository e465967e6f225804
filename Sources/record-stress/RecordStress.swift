import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

/// Records actions through a real store as fast as it can, until it is killed.
///
///     $ record-stress OUTPUT.actionlog [--flush-every N]
///     $ record-stress --rolling DIRECTORY [--flush-every N] [--segment-bytes B]
///
/// With `--rolling` it records the counter feature (`counter`, so `replay` can verify it)
/// into a rolling recording that keeps 8 segments' worth of bytes: each action taps
/// increment, so after action N the count is N.
///
/// After each completed `flush()` it prints `ack N` on standard output: every action up to N is
/// then in the file. The kill test reads those lines, kills the process at a random moment, and
/// checks that the log still opens, is a prefix of the actions sent, and holds every
/// acknowledged action.
@main
struct RecordStress {
  struct Count: Reducer {
    func reduce(into state: inout Int, action: Int) -> Effect<Int> {
      state = action
      return .none
    }
  }

  @MainActor
  static func main() throws {
    let arguments = CommandLine.arguments.dropFirst()
    func option(_ name: String) -> Int? {
      guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
        let value = Int(arguments[index + 1]), value > 0
      else { return nil }
      return value
    }
    if let index = arguments.firstIndex(of: "--rolling"), index + 1 < arguments.endIndex {
      try Self.rolling(
        into: URL(fileURLWithPath: arguments[index + 1]),
        flushEvery: option("--flush-every") ?? 100,
        segmentBytes: option("--segment-bytes") ?? 4_096)
    }
    guard let path = arguments.first, !path.hasPrefix("-") else {
      FileHandle.standardError.write(
        Data("usage: record-stress OUTPUT.actionlog [--flush-every N]\n".utf8)
      )
      exit(2)
    }
    var flushEvery = 100
    if let index = arguments.firstIndex(of: "--flush-every"), index + 1 < arguments.endIndex,
      let value = Int(arguments[index + 1]), value > 0
    {
      flushEvery = value
    }
    let recorder = try RecorderOf<Count>(
      url: URL(fileURLWithPath: path), feature: "stress", initialState: 0, checkpointInterval: 250,
      options: .init(syncPolicy: .never)
    )
    let store = Store(initialState: 0) { Count().recording(to: recorder) }
    var action = 0
    while true {
      action += 1
      store.send(action)
      if action.isMultiple(of: flushEvery) {
        try recorder.flush()
        FileHandle.standardOutput.write(Data("ack \(action)\n".utf8))
      }
    }
  }

  @MainActor
  static func rolling(into directory: URL, flushEvery: Int, segmentBytes: Int) throws -> Never {
    let recorder = try RecorderOf<CounterFeature>(
      directory: directory, feature: "counter", initialState: CounterFeature.State(),
      retention: .bytes(8 * segmentBytes), segmentBytes: segmentBytes, checkpointInterval: 10
    )
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    var action = 0
    while true {
      action += 1
      store.send(.incrementButtonTapped)
      if action.isMultiple(of: flushEvery) {
        try recorder.flush()
        FileHandle.standardOutput.write(Data("ack \(action)\n".utf8))
      }
    }
  }
}
