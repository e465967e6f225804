import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  // How many actions per second the background writer encodes and appends.

  static func writerThroughput(scratch: URL, actions: Int) throws {
    print("LogWriter: encode, frame and append \(actions) todos actions on the background thread")
    let url = scratch.appendingPathComponent("throughput.actionlog")
    let writer = try self.todosWriter(url)
    let script = self.todosScript(count: actions)
    let start = ContinuousClock.now
    for (index, action) in script.enumerated() {
      writer.append(
        .action(
          seq: index + 1, time: .nanoseconds(index), origin: .send, value: action,
          captured: CapturedValues()
        )
      )
    }
    let enqueued = ContinuousClock.now - start
    try writer.close()
    let total = ContinuousClock.now - start
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    print(
      "  \(pad("encode + append"))\(pad(format(total), 12))"
        + "\(Int(Double(actions) / total.seconds)) actions/s, \(megabytes(size)) MB written"
    )
    print(
      "  \(pad("appends, caller's view"))\(pad(format(enqueued), 12))"
        + "\(format(enqueued / actions)) per action"
        + " (blocks while \(LogWriter.Options().maximumPendingRecords) records wait)"
    )
    print()
  }
}
