import ActionLog
@_spi(Internals) import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

extension ReplayBench {
  // Store.send on the todos feature, recording, with the line that sent each action recorded
  // and without; and how much the recording grows by it.

  /// Sends `action` as a screen would, a line per kind of action; with `sites` off, the same
  /// lines send without saying where they are.
  @MainActor
  static func send(_ action: Todos.Action, to store: StoreOf<Todos>, sites: Bool) {
    switch action {
    case .addTodoButtonTapped:
      if sites { store.send(action) } else { store._send(action, site: nil) }
    case .filterPicked:
      if sites { store.send(action) } else { store._send(action, site: nil) }
    case .sortCompleted:
      if sites { store.send(action) } else { store._send(action, site: nil) }
    default:
      if sites { store.send(action) } else { store._send(action, site: nil) }
    }
  }

  @MainActor
  static func callSites(scratch: URL, sends: Int, rounds: Int) throws {
    let block = 2_000
    print(
      "Call sites: Store.send on todos, recording with the writer busy, with and without the line"
        + " that sent each action (\(sends) actions per round, in blocks of \(block) sent to each"
        + " store in turn; median of \(rounds) rounds, and of each round's ratio)"
    )
    let script = self.todosScript(count: sends)
    var timings: [Bool: [Duration]] = [:]
    var ratios: [Double] = []
    var sizes: [Bool: Int] = [:]
    for round in 0..<rounds {
      var stores: [Bool: (store: StoreOf<Todos>, recorder: RecorderOf<Todos>)] = [:]
      for sites in [false, true] {
        let url = scratch.appendingPathComponent("sites-\(round)-\(sites).actionlog")
        let recorder = try RecorderOf<Todos>(
          url: url, feature: "todos", initialState: Todos.State(),
          options: LogWriter.Options(syncPolicy: .never))
        stores[sites] = (Self.todosStore(recordingTo: recorder), recorder)
      }
      var totals: [Bool: Duration] = [:]
      for (index, start) in stride(from: 0, to: script.count, by: block).enumerated() {
        let actions = script[start..<min(start + block, script.count)]
        // Alternating which goes first, so warm-up favours neither.
        for sites in (index + round).isMultiple(of: 2) ? [false, true] : [true, false] {
          guard let (store, recorder) = stores[sites] else { continue }
          let start = ContinuousClock.now
          for action in actions {
            Self.send(action, to: store, sites: sites)
          }
          totals[sites, default: .zero] += ContinuousClock.now - start
          try recorder.flush()
        }
      }
      for (sites, total) in totals { timings[sites, default: []].append(total) }
      if let on = totals[true], let off = totals[false] { ratios.append(on / off) }
      for (sites, entry) in stores {
        try entry.recorder.close()
        if round == 0 {
          sizes[sites] =
            (try? FileManager.default.attributesOfItem(atPath: entry.recorder.url.path)[.size]
            as? Int) ?? 0
        }
      }
    }
    self.row("without call sites", median(timings[false] ?? []), per: sends)
    self.row("with call sites", median(timings[true] ?? []), per: sends)
    let ratio = median(ratios)
    self.ratio(ratio, goal: "≤ 1.02×", met: ratio <= 1.02, note: rangeOfRounds(ratios))
    if let off = sizes[false], let on = sizes[true], off > 0 {
      Self.growth("recording of the script", off, on)
    }
    // The bundled recording the example app made, against itself without its sites.
    let bundled = URL(fileURLWithPath: "Recordings/todos.actionlog")
    if let text = try? String(contentsOf: bundled, encoding: .utf8) {
      let without = Self.withoutSites(text)
      Self.growth("Recordings/todos.actionlog", without.utf8.count, text.utf8.count)
    }
    print()
  }

  private static func growth(_ label: String, _ without: Int, _ with: Int) {
    let growth = Double(with - without) / Double(without) * 100
    self.figure(
      label, "\(with) B",
      String(format: "%d B without sites: +%.2f%%, goal ≤ 3%%: %@", without, growth,
        growth <= 3 ? "met" : "NOT MET"))
  }

  /// A recording's text without its site records and its actions' `via`: as long as it
  /// would be had it been recorded without call sites (the checksums are left as they were).
  static func withoutSites(_ text: String) -> String {
    var result = ""
    for line in text.split(separator: "\n") {
      if line.dropFirst(9).hasPrefix(#"{"kind":"site""#) { continue }
      result += line.replacing(#/,"via":\d+/#, with: "") + "\n"
    }
    return result
  }
}
