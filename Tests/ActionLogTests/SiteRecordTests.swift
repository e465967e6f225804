import ActionLog
import Foundation
import StepChanges
import TestSupport
import Testing

/// Call sites in the log: each line numbered once per file, `via` left out for an action sent
/// from the line of the one before it, and every action's line read back as written.
@Suite struct SiteRecordTests {
  static let pool: [CallSite?] = [
    CallSite(fileID: "App/View.swift", line: 12), CallSite(fileID: "App/Row.swift", line: 30),
    CallSite(fileID: "App/Feature.swift", line: 88), nil,
  ]

  /// Writes `sites.count` actions, each sent from its site, a checkpoint every `interval`.
  static func write(
    _ sites: [CallSite?], to url: URL, interval: Int = 3, firstAction: Int = 1
  ) throws -> Recording {
    var header = makeHeader()
    if firstAction > 1 { header.metadata["firstAction"] = String(firstAction) }
    let writer = try LogWriter(url: url, header: header, initialState: Tally(total: 0))
    for (index, site) in sites.enumerated() {
      let seq = index + 1
      writer.append(
        .action(
          seq: seq, time: .milliseconds(seq), origin: .send, value: Step(number: seq),
          captured: CapturedValues(), site: site))
      if seq.isMultiple(of: interval) {
        writer.append(.checkpoint(seq: seq, state: Tally(total: seq)))
      }
    }
    try writer.close(at: .milliseconds(sites.count + 1))
    return try Recording(contentsOf: url)
  }

  @Test(arguments: 0..<20)
  func everyActionReadsBackItsLine(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    // Runs of one line, as keystrokes in one field make, among single actions.
    var sites: [CallSite?] = []
    while sites.count < 60 {
      let site = Self.pool.randomElement(using: &generator)!
      sites += Array(repeating: site, count: Int.random(in: 1...6, using: &generator))
    }
    let directory = TemporaryDirectory()
    let recording = try Self.write(sites, to: directory.file())
    #expect((1...sites.count).map { recording.site(ofAction: $0) } == sites)
    // Out of order, too.
    for seq in (1...sites.count).shuffled(using: &generator) {
      #expect(recording.site(ofAction: seq) == sites[seq - 1], "action \(seq)")
    }
    let text = try String(contentsOf: directory.file(), encoding: .utf8)
    let records = text.split(separator: "\n").map { $0.dropFirst(9) }
    // Each line once.
    let named = Set(sites.compactMap { $0 })
    #expect(records.filter { $0.hasPrefix(#"{"kind":"site""#) }.count == named.count)
    // Fewer `via` than actions, where runs left it out.
    let actions = records.filter { $0.hasPrefix(#"{"kind":"action""#) }
    #expect(actions.filter { $0.contains(#","via":"#) }.count < actions.count)
  }

  /// Segments of one recording written by different writers may number lines apart: the join
  /// gives a number that stands for another line in a later segment a new one.
  @Test func aJoinRenumbersALineThatALaterSegmentNumbersAnotherWay() throws {
    let directory = TemporaryDirectory()
    let view = CallSite(fileID: "App/View.swift", line: 12)
    let row = CallSite(fileID: "App/Row.swift", line: 30)
    let feature = CallSite(fileID: "App/Feature.swift", line: 88)
    let first = try Self.write([view, view, row], to: directory.file("1.actionlog"))
    let second = try Self.write(
      [row, feature, feature], to: directory.file("2.actionlog"), firstAction: 4)
    // The second writer numbered `row` 1, which the first gave `view`.
    #expect(second.callSitesByNumber[1] == row)
    #expect(first.callSitesByNumber[1] == view)
    let (joined, leftOut) = try Recording.joining([first, second])
    #expect(leftOut == 0)
    #expect(
      (1...6).map { joined.site(ofAction: $0) } == [view, view, row, row, feature, feature])
  }
}

/// A small deterministic generator, so that a failing seed fails again.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { self.state = seed &+ 0x9E37_79B9_7F4A_7C15 }
  mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
