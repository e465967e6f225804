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
      "Call sites: Store.send on todos with and without the line that sent each action, recording"
        + " with the writer busy and not recording (\(sends) actions per round, in blocks of"
        + " \(block) sent to each store in turn; median of \(rounds) rounds, and of each round's"
        + " ratio)"
    )
    struct Mode: Hashable {
      var recording: Bool
      var sites: Bool
    }
    let modes = [false, true].flatMap { recording in
      [false, true].map { Mode(recording: recording, sites: $0) }
    }
    let script = self.todosScript(count: sends)
    var timings: [Mode: [Duration]] = [:]
    var ratios: [Bool: [Double]] = [:]
    var sizes: [Bool: Int] = [:]
    for round in 0..<rounds {
      var stores: [Mode: (store: StoreOf<Todos>, recorder: RecorderOf<Todos>?)] = [:]
      for mode in modes {
        let url = scratch.appendingPathComponent("sites-\(round)-\(mode.sites).actionlog")
        let recorder =
          mode.recording
          ? try RecorderOf<Todos>(
            url: url, feature: "todos", initialState: Todos.State(),
            options: LogWriter.Options(syncPolicy: .never)) : nil
        stores[mode] = (Self.todosStore(recordingTo: recorder), recorder)
      }
      var totals: [Mode: Duration] = [:]
      for (index, start) in stride(from: 0, to: script.count, by: block).enumerated() {
        let actions = script[start..<min(start + block, script.count)]
        // Rotating which goes first, so warm-up favours none.
        for offset in 0..<modes.count {
          let mode = modes[(offset + index + round) % modes.count]
          guard let (store, recorder) = stores[mode] else { continue }
          let start = ContinuousClock.now
          for action in actions {
            Self.send(action, to: store, sites: mode.sites)
          }
          totals[mode, default: .zero] += ContinuousClock.now - start
          try recorder?.flush()
        }
      }
      for (mode, total) in totals { timings[mode, default: []].append(total) }
      for recording in [false, true] {
        if let on = totals[Mode(recording: recording, sites: true)],
          let off = totals[Mode(recording: recording, sites: false)]
        {
          ratios[recording, default: []].append(on / off)
        }
      }
      for (mode, entry) in stores {
        guard let recorder = entry.recorder else { continue }
        try recorder.close()
        if round == 0 {
          sizes[mode.sites] =
            (try? FileManager.default.attributesOfItem(atPath: recorder.url.path)[.size]
              as? Int) ?? 0
        }
      }
    }
    for (recording, label) in [(true, "recording"), (false, "not recording")] {
      for sites in [false, true] {
        self.row(
          "\(label), \(sites ? "with" : "without") sites",
          median(timings[Mode(recording: recording, sites: sites)] ?? []), per: sends)
      }
      let ratio = median(ratios[recording] ?? [])
      self.ratio(
        ratio, goal: "≤ 1.02×", met: ratio <= 1.02, note: rangeOfRounds(ratios[recording] ?? []))
    }
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
      String(
        format: "%d B without sites: +%.2f%%, goal ≤ 3%%: %@", without, growth,
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
