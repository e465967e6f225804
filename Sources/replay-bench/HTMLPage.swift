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
    var summary: HTMLReport.Summary?
    for _ in 0..<rounds {
      let start = ContinuousClock.now
      let recording = try Recording(contentsOf: url)
      summary = try HTMLReport.write(
        recording, to: page, options: HTMLReport.Options(fileName: url.lastPathComponent))
      generation.append(ContinuousClock.now - start)
    }
    let sorted = generation.sorted()
    let median = sorted[sorted.count / 2]
    print(row("generation", median, "open, render, compress and write"))
    print(
      "  (rounds \(String(format: "%.2f", seconds(sorted[0])))–"
        + "\(String(format: "%.2f", seconds(sorted[sorted.count - 1]))) s)")
    print(ratioRow(seconds(median) / 10, goal: "generation ≤ 10 s", met: seconds(median) <= 10))
    if let summary {
      print(
        "  page                    \(summary.bytes) bytes   the recording: \(recordingBytes) bytes;"
          + " its records unpacked: \(summary.recordBytes) bytes")
      let ratio = Double(summary.bytes) / Double(recordingBytes)
      print(ratioRow(ratio, goal: "file ≤ the recording's size", met: ratio <= 1))
    }
    self.firstPaint(of: page, rounds: rounds)
  }

  /// Opens the page in headless Chromium through the test driver, and prints when it painted
  /// first and when its list and first step were ready.
  static func firstPaint(of page: URL, rounds: Int) {
    let driver = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("Tests/ReplayCommandTests/Support/browser_check.py")
    guard FileManager.default.fileExists(atPath: driver.path) else {
      print(
        "  first paint             not measured: run from the package's folder (\(driver.path) is missing)"
      )
      return
    }
    var paints: [Double] = []
    var readies: [Double] = []
    for _ in 0..<rounds {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", driver.path, page.path, "--timing-only"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch {
        print("  first paint             not measured: \(error)")
        return
      }
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0,
        let facts = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let timings = facts["timings"] as? [String: Any],
        let paint = timings["firstContentfulPaint"] as? Double,
        let ready = timings["ready"] as? Double
      else {
        print(
          "  first paint             not measured: headless Chromium or Playwright is missing"
            + " (Tools/test installs them)")
        return
      }
      paints.append(paint / 1000)
      readies.append(ready / 1000)
    }
    paints.sort()
    readies.sort()
    let paint = paints[paints.count / 2]
    let ready = readies[readies.count / 2]
    print(
      "  first paint             \(String(format: "%.2f s", paint))      headless Chromium"
        + " (rounds \(String(format: "%.2f", paints[0]))–\(String(format: "%.2f", paints[paints.count - 1])) s)"
    )
    print(
      "  list and step ready     \(String(format: "%.2f s", ready))      unpacked, parsed, first rows drawn"
        + " (rounds \(String(format: "%.2f", readies[0]))–\(String(format: "%.2f", readies[readies.count - 1])) s)"
    )
    print(ratioRow(ready / 2, goal: "first paint ≤ 2 s, taken as the page ready", met: ready <= 2))
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
