import ActionLog
import ArgumentParser
import ComposableArchitecture
import ExampleFeatures
import Foundation

extension ReplayBench {
  // Decoding action records: the record codec's own decoder against Foundation's JSONDecoder.

  static func decode(actions: Int, rounds: Int) throws {
    print("decode \(actions) todos action records: the codec's decoder vs Foundation's JSONDecoder")
    let codec = CompactJSONCodec()
    let payloads = try self.todosScript(count: actions).enumerated().map { index, action in
      try codec.encode(
        TodosActionRecord(
          kind: "action", seq: index + 1, source: "send", time: index, value: action))
    }
    func decodeAll(_ codec: any RecordCodec) throws -> Int {
      var count = 0
      for payload in payloads {
        let record = try payload.withUnsafeBytes {
          try codec.decode(TodosActionRecord.self, from: $0)
        }
        count += record.seq > 0 ? 1 : 0
      }
      return count
    }
    var ours: [Duration] = []
    var foundation: [Duration] = []
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? [false, true] : [true, false]
      for isOurs in order {
        let start = ContinuousClock.now
        let count = try decodeAll(isOurs ? codec : FoundationJSONCodec())
        let elapsed = ContinuousClock.now - start
        precondition(count == actions)
        if isOurs { ours.append(elapsed) } else { foundation.append(elapsed) }
      }
    }
    let ratios = zip(foundation, ours).map { $0 / $1 }
    let perSecond = Double(actions) / median(ours).seconds
    self.row("Foundation JSONDecoder", median(foundation), per: actions)
    self.row("TapeJSONDecoder", median(ours), per: actions)
    self.figure(
      "throughput", String(format: "%.0f/s", perSecond),
      "for information")
    self.ratio(
      median(ratios), goal: "≥ 10× Foundation", met: median(ratios) >= 10,
      note: rangeOfRounds(ratios))
    print()
  }
}

/// An action record as the log holds it, for the decoding figures: with the code the macros
/// generate, as a recording's own action records have (hand-written there).
@_GeneratedCodec
struct TodosActionRecord: Codable {
  var kind: String
  var seq: Int
  var source: String
  var time: Int
  var value: Todos.Action
}
