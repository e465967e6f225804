import ActionLog
import Foundation
import StepChanges

/// Which steps each call site sent, read once from the recording.
struct StepsBySite {
  private var steps: [Int: [Int]] = [:]
  let sites: [Int: CallSite]

  init(_ recording: Recording) {
    self.sites = recording.callSitesByNumber
    guard !self.sites.isEmpty, recording.count > 0 else { return }
    for step in 1...recording.count {
      let number = recording.siteNumber(ofAction: step)
      if number > 0 { self.steps[number, default: []].append(step) }
    }
  }

  /// The steps sent from `line` of the file at `path`, by `index`'s reading of the sites.
  func steps(path: String, line: Int, index: SourceIndex) -> [Int] {
    let name = URL(fileURLWithPath: path).lastPathComponent
    var found: [Int] = []
    for (number, site) in self.sites where Int(site.line) == line && site.fileName == name {
      // NB: A file outside the root is matched by its name.
      if let resolved = index.path(of: site), resolved != path { continue }
      found += self.steps[number] ?? []
    }
    return found.sorted()
  }

  /// The lines of the file named as `path` that sent actions, for a breakpoint that matches none.
  func lines(path: String) -> [Int] {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return Set(
      self.sites.compactMap { number, site in
        site.fileName == name && self.steps[number] != nil ? Int(site.line) : nil
      }
    ).sorted()
  }
}
