import ComposableArchitecture
import Foundation
import TimeTravel

/// Records actions through a real store as fast as it can, until it is killed.
///
///     $ record-stress OUTPUT.actionlog [--flush-every N]
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
}
