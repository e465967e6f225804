import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  // How many actions per second the background writer encodes, frames and appends: with the
  // record codec, and with Foundation's `JSONEncoder` in its place, in alternating rounds.

  static func writerThroughput(scratch: URL, actions: Int, rounds: Int) throws {
    print(
      "LogWriter: encode, frame and append \(actions) todos actions on the background thread"
        + " (median of \(rounds) alternating rounds)")
    let script = self.todosScript(count: actions)
    let url = scratch.appendingPathComponent("throughput.actionlog")
    func write(_ codec: any RecordCodec) throws -> (total: Duration, enqueued: Duration, size: Int)
    {
      try? FileManager.default.removeItem(at: url)
      let writer = try self.todosWriter(url, codec: codec)
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
      return (total, enqueued, size)
    }
    var ours: [Duration] = []
    var foundation: [Duration] = []
    var enqueued: [Duration] = []
    var sizes: Set<Int> = []
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? [true, false] : [false, true]
      for isOurs in order {
        let run = try write(isOurs ? CompactJSONCodec() : FoundationJSONCodec())
        sizes.insert(run.size)
        if isOurs {
          ours.append(run.total)
          enqueued.append(run.enqueued)
        } else {
          foundation.append(run.total)
        }
      }
    }
    precondition(sizes.count == 1, "the two codecs wrote files of different sizes: \(sizes)")
    let ratios = zip(foundation, ours).map { $0 / $1 }
    let perSecond = Double(actions) / median(ours).seconds
    let foundationPerSecond = Double(actions) / median(foundation).seconds
    self.figure(
      "Foundation JSONEncoder", format(median(foundation)),
      String(format: "%.0f actions/s", foundationPerSecond))
    self.figure(
      "CompactJSONCodec", format(median(ours)),
      String(format: "%.0f actions/s, %@ MB written", perSecond, megabytes(sizes.first ?? 0)))
    self.figure(
      "throughput", String(format: "%.0f/s", perSecond),
      String(
        format: "for information (rounds %.0f–%.0f/s)",
        Double(actions) / (ours.max() ?? .zero).seconds,
        Double(actions) / (ours.min() ?? .zero).seconds))
    self.ratio(
      median(ratios), goal: "≥ 15× Foundation's encoder", met: median(ratios) >= 15,
      note: rangeOfRounds(ratios))
    print(
      "  \(pad("appends, caller's view"))\(pad(format(median(enqueued)), 12))"
        + "\(format(median(enqueued) / actions)) per action"
        + " (blocks while \(LogWriter.Options().maximumPendingRecords) records wait)"
    )
    print()
  }
}
