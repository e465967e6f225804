import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import ReplayViewer
import TimeTravel

extension ReplayBench {
  // `replay html` on a long todos recording: how long the page takes to make, how big it is
  // against the recording, and how soon headless Chromium shows it.

  @MainActor
  static func htmlPage(scratch: URL, actions: Int, rounds: Int) throws {
    print("replay html on a \(actions)-action todos recording (median of \(rounds) rounds)")
    let url = scratch.appendingPathComponent("html-todos.actionlog")
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: Todos.State(),
      options: LogWriter.Options(syncPolicy: .never))
    let store = Self.todosStore(recordingTo: recorder)
    for action in self.todosScript(count: actions) { store.send(action) }
    try recorder.close()
    let recordingBytes = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int

    let page = scratch.appendingPathComponent("html-todos.html")
    var generation: [Duration] = []
    var reading: [Duration] = []
    var summary: HTMLReport.Summary?
    // The baseline beside it: opening the recording and reading every action's JSON once, the
    // least a page of its actions does.
    for round in 0..<rounds {
      for isPage in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let start = ContinuousClock.now
        let recording = try Recording(contentsOf: url)
        if isPage {
          summary = try HTMLReport.write(
            recording, to: page, options: HTMLReport.Options(fileName: url.lastPathComponent))
          generation.append(ContinuousClock.now - start)
        } else {
          var bytes = 0
          for seq in 1...recording.count { bytes += try recording.actionJSON(seq).utf8.count }
          precondition(bytes > 0)
          reading.append(ContinuousClock.now - start)
        }
      }
    }
    let generated = median(generation)
    let ratios = zip(generation, reading).map { $0 / $1 }
    print(row("reading every action", median(reading), "open, and each action's JSON"))
    print(row("generation", generated, "open, render, compress and write"))
    print(
      ratioRow(
        median(ratios), goal: "generation ≤ 8× reading every action",
        met: median(ratios) <= 8) + " (" + rangeOfRounds(ratios) + ")")
    if let summary {
      print(
        "  page                    \(summary.bytes) bytes   the recording: \(recordingBytes) bytes;"
          + " its records unpacked: \(summary.recordBytes) bytes")
      let ratio = Double(summary.bytes) / Double(recordingBytes)
      print(ratioRow(ratio, goal: "file ≤ the recording's size", met: ratio <= 1))
    }
    // The page of a short recording beside it: what the browser and the page cost before any
    // action is unpacked.
    let small = scratch.appendingPathComponent("html-small.actionlog")
    let smallRecorder = try RecorderOf<Todos>(
      url: small, feature: "todos", initialState: Todos.State(),
      options: LogWriter.Options(syncPolicy: .never))
    let smallStore = Self.todosStore(recordingTo: smallRecorder)
    for action in self.todosScript(count: 20) { smallStore.send(action) }
    try smallRecorder.close()
    let smallPage = scratch.appendingPathComponent("html-small.html")
    _ = try HTMLReport.write(
      try Recording(contentsOf: small), to: smallPage,
      options: HTMLReport.Options(fileName: small.lastPathComponent))
    self.firstPaint(of: page, against: smallPage, rounds: rounds)
  }

  /// Opens the page in headless Chromium through the test driver, and prints when it painted
  /// first and when its list and first step were ready.
  static func firstPaint(of page: URL, against small: URL, rounds: Int) {
    let driver = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("Tests/ReplayCommandTests/Support/browser_check.py")
    guard FileManager.default.fileExists(atPath: driver.path) else {
      print(
        "  first paint             not measured: run from the package's folder (\(driver.path) is missing)"
      )
      return
    }
    /// The first paint and the readiness of a page, in seconds, or why they were not measured.
    func timings(_ page: URL) -> (paint: Double?, loaded: Double, ready: Double)? {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", driver.path, page.path, "--timing-only"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch { return nil }
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      // NB: A time in whole milliseconds reads back as an integer.
      func seconds(_ value: Any?) -> Double? {
        (value as? Double) ?? (value as? Int).map(Double.init)
      }
      guard process.terminationStatus == 0,
        let facts = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let timings = facts["timings"] as? [String: Any],
        let loaded = seconds(timings["loaded"]),
        let ready = seconds(timings["ready"])
      else { return nil }
      // NB: Chromium may report no contentful paint for a page drawn before it looks (a small
      // one): the paint is for information, the readiness is the figure.
      let paint = seconds(timings["firstContentfulPaint"])
      return (paint.map { $0 / 1000 }, loaded / 1000, ready / 1000)
    }
    var paints: [Double] = []
    var readies: [Double] = []
    var loads: [Double] = []
    var smallReadies: [Double] = []
    for round in 0..<rounds {
      for isBig in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        guard let measured = timings(isBig ? page : small) else {
          print(
            "  first paint             not measured: headless Chromium or Playwright is missing"
              + " (Tools/test installs them)")
          return
        }
        if isBig {
          if let paint = measured.paint { paints.append(paint) }
          readies.append(measured.ready)
          loads.append(measured.loaded)
        } else {
          smallReadies.append(measured.ready)
        }
      }
    }
    let ready = median(readies)
    // NB: The baseline is the page's own unpacking and parsing of its data, in the same load:
    // what any page showing the recording must do before it shows it.
    let ratios = zip(readies, loads).map { $0 / $1 }
    if paints.isEmpty {
      print("  first paint             not reported by headless Chromium")
    } else {
      print(
        "  first paint             \(String(format: "%.2f s", median(paints)))      headless Chromium"
          + " (rounds \(String(format: "%.2f", paints.min()!))–\(String(format: "%.2f", paints.max()!)) s)"
      )
    }
    print(
      "  data unpacked, parsed   \(String(format: "%.2f s", median(loads)))      from navigation:"
        + " the page's HTML, its script, and its recording's records read"
    )
    print(
      "  list and step ready     \(String(format: "%.2f s", ready))      first rows and a step drawn;"
        + " a 20-action page: \(String(format: "%.2f s", median(smallReadies))), for information"
    )
    print(
      ratioRow(
        median(ratios), goal: "ready ≤ 1.5× its data unpacked and parsed",
        met: median(ratios) <= 1.5)
        + " (" + rangeOfRounds(ratios) + ")")
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  private static func row(_ name: String, _ duration: Duration, _ what: String) -> String {
    "  " + name.padding(toLength: 22, withPad: " ", startingAt: 0) + "  "
      + String(format: "%.2f s", seconds(duration)) + "      " + what
  }

  private static func ratioRow(_ ratio: Double, goal: String, met: Bool) -> String {
    "  ratio to goal           \(String(format: "%.2f×", ratio))       \(goal): \(met ? "met" : "NOT met")"
  }
}
