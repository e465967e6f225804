import ActionLogScan
import StepChanges

/// The source lines a recording's action records name by number (`via`), from its site records.
struct RecordedSites: Sendable {
  private var byNumber: [Int: CallSite] = [:]
  /// The site records, in the order written: copied as they are by an export or a join, so
  /// that every number keeps its line.
  private(set) var lines: [(number: Int, site: CallSite, line: LineRange, after: Int)] = []

  /// Adds the site record on `line`, which follows action `after` (0: before the first).
  mutating func add(number: Int, _ site: CallSite, line: LineRange, after: Int) {
    self.byNumber[number] = site
    self.lines.append((number, site, line, after))
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
    guard !self.sites.lines.isEmpty, let line = try? self.actionLine(seq) else { return nil }
    guard let bytes = try? self.member("via", of: line),
      let number = Int(String(decoding: bytes, as: UTF8.self))
    else { return nil }
    return self.sites[number]
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
