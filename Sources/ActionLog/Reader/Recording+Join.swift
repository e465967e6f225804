import ActionLogScan
import Foundation
import StepChanges

extension Recording {
  /// The first action of the session a segment of a rolling recording holds (its header's
  /// `firstAction`); 1 for any other recording.
  public var firstAction: Int {
    self.header.metadata["firstAction"].flatMap(Int.init).map { max(1, $0) } ?? 1
  }

  /// Joins consecutive segments of one rolling recording, oldest first, into one recording in
  /// memory: the first one's header, then every segment's actions, checkpoints and notes,
  /// numbered on from the first, and the last one's ending.
  ///
  /// Segments must follow one another without a gap (each one's ``firstAction`` right after
  /// the previous one's last action). Where one does not (a segment deleted or torn), the join
  /// starts after the gap: what came before could not be replayed up to what follows.
  ///
  /// - Returns: The joined recording, and the segments it starts from (those before a gap are
  ///   left out).
  public static func joining(_ segments: [Recording]) throws -> (Recording, leftOut: Int) {
    guard var start = segments.indices.first else {
      throw ActionLogError.empty(path: "the segments")
    }
    for index in segments.indices.dropFirst()
    where segments[index].firstAction != segments[index - 1].firstAction + segments[index - 1].count
    {
      start = index
    }
    let kept = Array(segments[start...])
    if kept.count == 1 { return (kept[0], start) }

    let first = kept[0]
    var output: [UInt8] = []
    let header = first.storage.withUnsafeBytes { bytes in
      let line = first.headerLine
      return Array(bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)])
    }
    Framing.append(payload: header, to: &output)
    var sites = JoinedSites()
    for (position, segment) in kept.enumerated() {
      let offset = segment.firstAction - first.firstAction
      try segment.appendRecords(renumberedBy: offset, sites: &sites, to: &output)
      let next = kept.indices.contains(position + 1) ? kept[position + 1] : nil
      // NB: A segment that another follows ends with the checkpoint the next one starts from;
      // a torn one may not, and then the next one's initial state stands in.
      if let next, segment.count > 0, segment.checkpointLines[segment.count] == nil {
        let record = try segment.codec.encode(
          CheckpointRecord(
            kind: RecordKind.checkpoint.rawValue, seq: offset + segment.count, value: Skipped()))
        let state = try next.member("initialState", of: next.headerLine)
        let payload = try record.withUnsafeBytes {
          try JSONRewriter.rewritingMembers(of: $0, replacing: ["value": state])
        }
        Framing.append(payload: payload, to: &output)
      }
    }
    let last = kept[kept.count - 1]
    if last.ending == .clean {
      let end = EndRecord(
        kind: RecordKind.end.rawValue,
        seq: last.firstAction - first.firstAction + last.count,
        time: last.endTime ?? (last.count > 0 ? last.actionTime(at: last.count - 1) : 0))
      Framing.append(payload: try first.codec.encode(end), to: &output)
    }
    let joined = try Recording(
      data: Data(output), url: first.url, limits: first.limits, codec: first.codec)
    return (joined, start)
  }

  /// Appends this recording's records after its header, without its end, with every sequence
  /// number and trigger moved on by `offset`, and its site records where `sites` has not
  /// written them (renumbering its actions' `via` where a number already stands for another
  /// line).
  private func appendRecords(
    renumberedBy offset: Int, sites: inout JoinedSites, to output: inout [UInt8]
  ) throws {
    var notes: [Int: [String]] = [:]
    for case let .note(seq, text) in self.warnings {
      notes[seq, default: []].append(text)
    }
    for (seq, text) in self.unrecordedNotes {
      if let index = notes[seq]?.firstIndex(of: text) { notes[seq]?.remove(at: index) }
    }
    func rewriting(_ line: LineRange, _ replacements: [String: [UInt8]]) throws -> [UInt8] {
      try self.storage.withUnsafeBytes {
        try JSONRewriter.rewritingMembers(
          of: UnsafeRawBufferPointer(
            rebasing: $0[line.payloadStart..<(line.payloadStart + line.payloadLength)]),
          replacing: replacements)
      }
    }
    var shared: [Int: [LineRange]] = [:]
    for (seq, line) in self.sharedLines { shared[seq, default: []].append(line) }
    func appendNotes(after seq: Int) throws {
      for line in shared[seq] ?? [] {
        Framing.append(
          payload: try rewriting(line, ["seq": Array(String(seq + offset).utf8)]), to: &output)
      }
      for text in notes[seq] ?? [] {
        let note = NoteRecord(kind: RecordKind.note.rawValue, seq: seq + offset, text: text)
        Framing.append(payload: try self.codec.encode(note), to: &output)
      }
    }
    var renumberedSites: [Int: Int] = [:]
    for site in self.sites.lines {
      let (number, isNew) = sites.number(for: site.site, preferring: site.number)
      if number != site.number { renumberedSites[site.number] = number }
      guard isNew else { continue }
      let record = SiteRecord(
        kind: RecordKind.site.rawValue, site: number, where: site.site.qualifiedDescription)
      Framing.append(payload: try self.codec.encode(record), to: &output)
    }
    try appendNotes(after: 0)
    guard self.count > 0 else { return }
    for seq in 1...self.count {
      let number = Array(String(seq + offset).utf8)
      let line = self.actionLine(at: seq - 1)
      if line.length < 0 {
        let note = NoteRecord(
          kind: RecordKind.note.rawValue, seq: seq + offset,
          text: self.unrecordedNotes[seq] ?? "the action was not recorded",
          unrecorded: RecordKind.action.rawValue)
        Framing.append(payload: try self.codec.encode(note), to: &output)
      } else {
        var replacements = ["seq": number]
        let trigger = self.actionTrigger(at: seq - 1)
        if trigger > 0 { replacements["trigger"] = Array(String(trigger + offset).utf8) }
        if !renumberedSites.isEmpty, let via = try? self.member("via", of: line),
          let number = Int(String(decoding: via, as: UTF8.self)),
          let renumbered = renumberedSites[number]
        {
          replacements["via"] = Array(String(renumbered).utf8)
        }
        Framing.append(payload: try rewriting(line, replacements), to: &output)
      }
      if let checkpoint = self.checkpointLines[seq] {
        Framing.append(payload: try rewriting(checkpoint, ["seq": number]), to: &output)
      }
      try appendNotes(after: seq)
    }
  }
}

/// The site records a join has written: a number keeps its line from segment to segment, as
/// one writer numbers them; a number a later segment gives another line is given a new one.
private struct JoinedSites {
  private var numbers: [CallSite: Int] = [:]
  private var taken: Set<Int> = []

  /// The joined recording's number for `site`, which its segment numbers `number`, and
  /// whether its record is still to be written.
  mutating func number(for site: CallSite, preferring number: Int) -> (Int, isNew: Bool) {
    if let existing = self.numbers[site] { return (existing, false) }
    var chosen = number
    if self.taken.contains(chosen) { chosen = (self.taken.max() ?? 0) + 1 }
    self.taken.insert(chosen)
    self.numbers[site] = chosen
    return (chosen, true)
  }
}
