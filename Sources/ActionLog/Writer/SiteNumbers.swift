import StepChanges

/// The numbers a writer gives the source lines actions were sent from: an action record names
/// its line by number (`via`), and a site record, written once per file before the first action
/// that names it, says which line the number stands for.
///
/// A number stands for the same line in every segment of a rolling recording, so segments join
/// without renumbering; each segment names again the lines its own actions use.
///
/// An action sent from the same line as the action record before it leaves `via` out, back to
/// the file's start or its last checkpoint record: a run of keystrokes in one text field costs
/// nothing. `0` says that an action's line is not known where the one before it was.
struct SiteNumbers {
  private var numbers: [CallSite: Int] = [:]
  private var named: [Bool] = []
  /// What the last action record written said its line was, since the file's start or its
  /// last checkpoint record; `nil` when none was written since.
  private(set) var lastVia: Int?

  /// The `via` an action sent from `site` is written with (`nil`: left out), and what it
  /// makes ``lastVia`` once its record is written.
  func via(forNumber number: Int?) -> (written: Int?, last: Int) {
    Self.via(forNumber: number ?? 0, after: self.lastVia)
  }

  /// The `via` an action numbered `number` (0: not known) is written with after an action
  /// record that said `lastVia` (`nil`: none since the file's start or its last checkpoint
  /// record), and what it says for the next one.
  static func via(forNumber number: Int, after lastVia: Int?) -> (written: Int?, last: Int) {
    number == (lastVia ?? 0) ? (nil, number) : (number, number)
  }

  /// An action record was written, saying `via` (what ``via(forNumber:)`` gave).
  mutating func wrote(via last: Int) {
    self.lastVia = last
  }

  /// A checkpoint record was written: the next action says its line again.
  mutating func wroteCheckpoint() {
    self.lastVia = nil
  }

  /// The number of `site`, and the site record to write before the action when this file has
  /// not named it yet.
  mutating func number(for site: CallSite) -> (number: Int, record: SiteRecord?) {
    if let number = self.numbers[site] {
      guard !self.named[number - 1] else { return (number, nil) }
      self.named[number - 1] = true
      return (number, Self.record(number, site))
    }
    self.named.append(true)
    let number = self.named.count
    self.numbers[site] = number
    return (number, Self.record(number, site))
  }

  /// A new file begins: it names each line again before its first use.
  mutating func startFile() {
    for index in self.named.indices { self.named[index] = false }
    self.lastVia = nil
  }

  private static func record(_ number: Int, _ site: CallSite) -> SiteRecord {
    SiteRecord(kind: RecordKind.site.rawValue, site: number, where: site.qualifiedDescription)
  }
}
