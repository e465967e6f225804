import ActionLog
import Foundation
import TestSupport
import Testing

/// `replay check` at scale: verdicts from several child processes at once in the order of the
/// paths, a corpus split in shards, a JUnit report CI systems read, and Ctrl-C with every job
/// running. Driven through the real `replay`.
@Suite struct CheckAtScaleTests {
  /// `replay check`'s own corpus (two passing recordings, one whose replay traps, a file that
  /// is no recording), with a third passing one and one that no longer replays as reported (a
  /// diff).
  func corpus() throws -> TemporaryDirectory {
    let directory = try CheckCommandTests().corpus()
    try FileManager.default.copyItem(
      at: bundledRecording("songs"), to: directory.file("songs.actionlog"))
    try FileManager.default.copyItem(
      at: bundledRecording("bug-reports/songs-heart-bug-as-reported"),
      to: directory.file("sub/heart-bug.actionlog"))
    return directory
  }

  @Test func everyJobCountGivesTheSameVerdictsInTheOrderOfThePaths() async throws {
    let directory = try self.corpus()
    let alone = try await run("replay", ["check", ".", "--jobs", "1"], in: directory.url)
    #expect(alone.status == 1)
    #expect(alone.output.hasSuffix("Checked 6 recordings: 3 pass, 3 fail.\n"), "\(alone.output)")
    for jobs in [2, 4, 8] {
      let together = try await run(
        "replay", ["check", ".", "--jobs", "\(jobs)"], in: directory.url)
      #expect(together == alone, "--jobs \(jobs)")
    }
  }

  /// 2,000 paths, as a team's folder of saved recordings holds them.
  static let paths = (0..<2_000).map { index in
    "\(["bug-reports", "field/ios", "regressions"][index % 3])/recording-\(index).actionlog"
  }

  @Test func fourShardsHoldEveryRecordingOnceAndANewOneMovesNoOther() throws {
    let parts = try (1...4).map { part in
      let shard = try RecordingShard(part: part, of: 4)
      return Set(Self.paths.filter(shard.contains))
    }
    #expect(parts.map(\.count).reduce(0, +) == Self.paths.count)
    #expect(parts.reduce(Set<String>()) { $0.union($1) } == Set(Self.paths))
    for (index, part) in parts.enumerated() {
      // Near a quarter each: the hash spreads paths that differ only in a number.
      #expect((400...600).contains(part.count), "part \(index + 1) holds \(part.count)")
    }
    let before = Self.paths.map { RecordingShard.part(of: $0, count: 4) }
    let added = Self.paths + ["bug-reports/new.actionlog"]
    let after = added.map { RecordingShard.part(of: $0, count: 4) }
    #expect(Array(after.prefix(Self.paths.count)) == before)
    // NB: Pinned: the rule is how every CI machine of a team agrees on its part; a change of
    // it moves recordings between machines, and is a change of behaviour.
    #expect(RecordingShard.part(of: "bug-reports/heart.actionlog", count: 4) == 3)
    #expect(RecordingShard.part(of: "todos.actionlog", count: 7) == 6)
  }

  @Test func aShardIsWrittenKOfN() throws {
    #expect(try RecordingShard(parsing: "2/4") == RecordingShard(part: 2, of: 4))
    for text in ["0/4", "5/4", "4", "a/b", "2/0", "-1/3", ""] {
      #expect(throws: RecordingShardError.self, "\(text)") { try RecordingShard(parsing: text) }
    }
    #expect(try RecordingShard.fromEnvironment([:]) == nil)
    #expect(
      try RecordingShard.fromEnvironment([RecordingShard.environmentKey: "3/3"])
        == RecordingShard(part: 3, of: 3))
  }

  @Test func theFourShardsOfAFolderAreTheFolder() async throws {
    let directory = try self.corpus()
    for index in 0..<10 {
      try FileManager.default.copyItem(
        at: bundledRecording("counter"), to: directory.file("copy-\(index).actionlog"))
    }
    var checked: [String] = []
    for part in 1...4 {
      let result = try await run(
        "replay", ["check", ".", "--shard", "\(part)/4", "--json"], in: directory.url)
      guard result.status != 0 || !result.output.hasPrefix("Part ") else { continue }
      let document = try #require(
        JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
        "\(result.output)")
      #expect(document["shard"] as? String == "\(part)/4")
      let recordings = try #require(document["recordings"] as? [[String: Any]])
      checked += recordings.compactMap { $0["file"] as? String }
    }
    let all = try RecordingFolder.relativePaths(in: directory.url).map { "./" + $0 }
    #expect(checked.sorted() == all)
    #expect(Set(checked).count == checked.count)

    let wrong = try await run("replay", ["check", ".", "--shard", "5/4"], in: directory.url)
    #expect(wrong.status == 64)
    #expect(wrong.errors.contains(#""5/4" is not a shard: write K/N"#), "\(wrong.errors)")
  }

  @Test func theJUnitReportValidatesAndHoldsEachVerdict() async throws {
    let directory = try self.corpus()
    let report = directory.file("report.xml")
    let checked = try await run(
      "replay", ["check", ".", "--junit", report.path], in: directory.url)
    #expect(checked.status == 1)
    let xml = try String(contentsOf: report, encoding: .utf8)
    try await Self.expectValid(report)

    #expect(xml.contains(#"tests="6" failures="1" errors="2""#), "\(xml)")
    #expect(xml.contains(#"<testcase name="counter.actionlog" classname="recordings" time=""#))
    // The failing recording: its step and its diff, as `replay verify` prints them.
    let heart = try #require(xml.range(of: #"<testcase name="heart-bug.actionlog""#))
    let end = try #require(xml.range(of: "</testcase>", range: heart.upperBound..<xml.endIndex))
    let failure = String(xml[heart.lowerBound..<end.lowerBound])
    #expect(
      failure.contains(
        #"<failure message="The replay differs from the recording at step 8: the state after it"#),
      "\(failure)")
    #expect(failure.contains("-         isFavorite: true,"), "\(failure)")
    #expect(failure.contains("+         isFavorite: false,"), "\(failure)")
    // The damaged file and the trap: errors, with their verdicts.
    #expect(
      xml.contains(
        #"<error message="./sub/garbage.actionlog does not start with a valid header record"#))
    #expect(xml.contains(#"type="unreadable">"#))
    #expect(xml.contains(#"type="crashed">the reducer crashed at step 1 of 118"#))

    // The schema check can fail: a report without a test case's name does not validate.
    let broken = directory.file("broken.xml")
    try Data(
      xml.replacingOccurrences(of: #"<testcase name="counter.actionlog" "#, with: "<testcase ").utf8
    )
    .write(to: broken)
    let rejected = try await Self.validate(broken)
    #expect(rejected.status != 0)
  }

  /// The project's reading of the JUnit schema CI systems validate reports against.
  static let schema = packageRoot.appendingPathComponent(
    "Tests/ReplayCommandTests/Support/junit.xsd")

  static func validate(_ report: URL) async throws -> ProcessResult {
    try await run(
      "xmllint", ["--noout", "--schema", Self.schema.path, report.path], in: packageRoot,
      isProduct: false)
  }

  static func expectValid(_ report: URL) async throws {
    let validated = try await Self.validate(report)
    #expect(validated.status == 0, "\(validated.errors)")
  }

  /// Ctrl-C (to the whole process group, as a terminal sends it) while four long recordings
  /// are being checked at once: the verdict so far and the summary, and no `replay verify`
  /// left running.
  @Test func ctrlCDuringFourJobsLeavesNoChildAndPrintsTheVerdictsSoFar() async throws {
    let directory = TemporaryDirectory()
    let long = try await CheckCommandTests().longRecording(in: directory)
    for index in 1...3 {
      try FileManager.default.copyItem(at: long, to: directory.file("long-\(index).actionlog"))
    }
    try FileManager.default.copyItem(
      at: bundledRecording("counter"), to: directory.file("a-short.actionlog"))
    let replay = try #require(productURL("replay"))
    let script = """
      import os, signal, subprocess, sys, time
      child = subprocess.Popen([sys.argv[1], "check", ".", "--jobs", "4"], start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
      first = child.stdout.readline()
      time.sleep(0.2)  # every job under way
      os.killpg(child.pid, signal.SIGINT)
      rest, err = child.communicate(timeout=300)  # a hang bound only
      sys.stdout.write((first + rest).decode())
      sys.stderr.write(err.decode())
      # Every process left with the check's folder of step files in its arguments.
      mark = "replay-isolated-%d-" % child.pid
      left = []
      for pid in os.listdir("/proc"):
          try:
              with open("/proc/%s/cmdline" % pid, "rb") as f:
                  if mark.encode() in f.read(): left.append(pid)
          except (OSError, ValueError):
              pass
      sys.stderr.write("left: %d\\n" % len(left))
      sys.exit(child.returncode)
      """
    let checked = try await run(
      "python3", ["-c", script, replay.path], in: directory.url, isProduct: false)
    #expect(checked.status == 130, "\(checked)")
    #expect(checked.errors.hasSuffix("left: 0\n"), "\(checked.errors)")
    // NB: How many long recordings finish in the moment before the interrupt depends on how busy
    // the host is: what holds is the short one's verdict, each verdict a pass, and a summary
    // that counts them and stops short of all five.
    let lines = checked.output.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "pass  ./a-short.actionlog: today's reducer reproduces every step of 118 actions.",
      "\(checked.output)")
    let verdicts = lines.dropLast()
    #expect(verdicts.allSatisfy { $0.hasPrefix("pass  ./") }, "\(checked.output)")
    let passes = verdicts.count
    #expect(passes < 5, "\(checked.output)")
    #expect(
      lines.last
        == "Interrupted after \(passes) of 5 recordings: \(passes) \(passes == 1 ? "passes" : "pass"), 0 fail.",
      "\(checked.output)")
  }
}
