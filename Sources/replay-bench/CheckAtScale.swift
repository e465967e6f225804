import ExampleFeatures
import Foundation

extension ReplayBench {
  // `replay check` over a corpus of small recordings: `--jobs 2` against `--jobs 1`, the
  // whole command timed, in alternating rounds. The recordings are copies of one small todos
  // session, in folders of 100, as a team's saved recordings sit.

  @MainActor
  static func checkAtScale(scratch: URL, recordings: Int, rounds: Int) throws {
    print(
      "Check at scale: replay check of \(recordings) small recordings, --jobs 2 vs --jobs 1"
        + " (median of \(rounds) alternating rounds)")
    let replay = Bundle.main.executableURL!.deletingLastPathComponent()
      .appendingPathComponent("replay")
    guard FileManager.default.isExecutableFile(atPath: replay.path) else {
      print("  skipped: no replay beside replay-bench (Tools/bench builds both)\n")
      return
    }
    let corpus = scratch.appendingPathComponent("check-corpus")
    let sample = scratch.appendingPathComponent("check-one.actionlog")
    try self.record(Todos(), Todos.State(), self.todosScript(count: 6), to: sample)
    for index in 0..<recordings {
      let folder = corpus.appendingPathComponent(String(format: "folder-%03d", index / 100))
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: sample, to: folder.appendingPathComponent("recording-\(index).actionlog"))
    }
    func check(jobs: Int) throws -> Duration {
      let process = Process()
      process.executableURL = replay
      process.arguments = ["check", corpus.path, "--jobs", "\(jobs)"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let start = ContinuousClock.now
      try process.run()
      process.waitUntilExit()
      let elapsed = ContinuousClock.now - start
      guard process.terminationStatus == 0 else {
        print("  replay check --jobs \(jobs) exited with \(process.terminationStatus)")
        throw CocoaError(.executableLoad)
      }
      return elapsed
    }
    var one = [Duration]()
    var two = [Duration]()
    for round in 0..<rounds {
      for jobs in round.isMultiple(of: 2) ? [1, 2] : [2, 1] {
        let elapsed = try check(jobs: jobs)
        if jobs == 1 { one.append(elapsed) } else { two.append(elapsed) }
      }
    }
    let ratios = zip(two, one).map { $0 / $1 }
    self.row("--jobs 1", median(one), per: recordings, "recording")
    self.row("--jobs 2", median(two), per: recordings, "recording")
    self.ratio(
      median(ratios), goal: "≤ 0.6× --jobs 1 on 2 cores", met: median(ratios) <= 0.6,
      note: rangeOfRounds(ratios))
    print()
  }
}
