import StepChanges

/// The numbers a writer gives the source lines actions were sent from: an action record names
/// its line by number (`via`), and a site record, written once per file before the first action
/// that names it, says which line the number stands for.
///
/// A number stands for the same line in every segment of a rolling recording, so segments join
/// without renumbering; each segment names again the lines its own actions use.
struct SiteNumbers {
  private var numbers: [CallSite: Int] = [:]
  private var named: [Bool] = []

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
  }

  private static func record(_ number: Int, _ site: CallSite) -> SiteRecord {
    SiteRecord(kind: RecordKind.site.rawValue, site: number, where: site.qualifiedDescription)
  }
}
