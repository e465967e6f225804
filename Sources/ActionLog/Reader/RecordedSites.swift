import ActionLogScan
import Foundation
import StepChanges

/// The source lines a recording's action records name by number (`via`), from its site records.
struct RecordedSites: Sendable {
  private var byNumber: [Int: CallSite] = [:]
  /// The site records, in the order written: copied as they are by an export or a join, so
  /// that every number keeps its line.
  private(set) var lines: [(number: Int, site: CallSite, line: LineRange, after: Int)] = []

  /// Reads and adds the site record `payload`, on `line`, which follows action `after` (0:
  /// before the first); `false` for one without a number from 1 and a `Module/File.swift:80`.
  mutating func add(
    _ payload: UnsafeRawBufferPointer, codec: any RecordCodec, line: LineRange, after: Int
  ) -> Bool {
    guard let record = try? codec.decode(SiteRecord.self, from: payload),
      let site = CallSite(record.where), record.site > 0
    else { return false }
    self.byNumber[record.site] = site
    self.lines.append((record.site, site, line, after))
    return true
  }

  /// The line numbered `number`, or `nil` when no site record names it.
  subscript(number: Int) -> CallSite? {
    self.byNumber[number]
  }
}

extension Recording {
  /// The source line that sent action `seq`, as recorded: the `Store.send` call, or the
  /// `Effect.run` or `Effect.send` that made the effect that fed it back. `nil` for an action
  /// recorded without one (recordings made before call sites, a reducer run outside a store),
  /// and for one that cannot be read.
  public func site(ofAction seq: Int) -> CallSite? {
    guard !self.sites.lines.isEmpty else { return nil }
    return self.sites[self.siteNumber(ofAction: seq)]
  }

  /// The number of the line that sent action `seq` (0: not known), as ``callSitesByNumber``
  /// numbers them. An action record without
  /// `via` was sent from the same line as the action record before it, back to the file's start
  /// or its last checkpoint record: the records are followed back that far, and the last answer
  /// is kept, so that going through the actions in order reads each record once.
  public func siteNumber(ofAction seq: Int) -> Int {
    if let known = self.siteMemo.number(ofAction: seq) { return known }
    var step = seq
    var number = 0
    while step >= 1 {
      // NB: An action that could not be read (a note in its place) ends the search: which
      // line sent it, and so the next, is not known.
      guard let line = try? self.actionLine(step) else { break }
      if let bytes = try? self.member("via", of: line) {
        number = Int(String(decoding: bytes, as: UTF8.self)) ?? 0
        break
      }
      guard step > 1, self.checkpointLines[step - 1] == nil else { break }
      if let known = self.siteMemo.number(ofAction: step - 1) {
        number = known
        break
      }
      step -= 1
    }
    self.siteMemo.remember(number, ofAction: seq)
    return number
  }

  /// The site of action `seq`, whose record was decoded and said `via`: without `via`, the site
  /// of the action before it, which walking in order has just read, when the memo has it.
  func site(ofAction seq: Int, via: Int?) -> CallSite? {
    guard !self.sites.lines.isEmpty else { return nil }
    if let via {
      self.siteMemo.remember(via, ofAction: seq)
      return self.sites[via]
    }
    if seq > 1, self.checkpointLines[seq - 1] == nil,
      let known = self.siteMemo.number(ofAction: seq - 1)
    {
      self.siteMemo.remember(known, ofAction: seq)
      return self.sites[known]
    }
    return self.site(ofAction: seq)
  }

  /// Whether any action of the recording says where it was sent from.
  public var hasCallSites: Bool {
    !self.sites.lines.isEmpty
  }

  /// The source lines the recording's site records name, by number: what an action record's
  /// `via` stands for.
  public var callSitesByNumber: [Int: CallSite] {
    Dictionary(self.sites.lines.map { ($0.number, $0.site) }) { _, last in last }
  }

  /// The source lines the recording's actions were sent from, in the order first named.
  public var callSites: [CallSite] {
    var seen: Set<CallSite> = []
    return self.sites.lines.map(\.site).filter { seen.insert($0).inserted }
  }
}

/// The last action whose line a recording worked out: the next one in order costs one record.
final class SiteMemo: @unchecked Sendable {
  private let lock = NSLock()
  private var last: (seq: Int, number: Int)?

  func number(ofAction seq: Int) -> Int? {
    self.lock.withLock { self.last?.seq == seq ? self.last?.number : nil }
  }

  func remember(_ number: Int, ofAction seq: Int) {
    self.lock.withLock { self.last = (seq, number) }
  }
}
