import ActionLog
import Foundation
import StepChanges

/// The Swift files under a source root, found by the `Module/File.swift` a recording names.
struct SourceIndex {
  let root: URL
  private var byName: [String: [String]] = [:]

  /// Indexes the `.swift` files under `root`, leaving out hidden folders and `.build`.
  init(root: URL) {
    self.root = root.standardizedFileURL
    let manager = FileManager.default
    guard
      let walker = manager.enumerator(
        at: self.root, includingPropertiesForKeys: [.isDirectoryKey],
        options: [.skipsHiddenFiles, .skipsPackageDescendants])
    else { return }
    for case let url as URL in walker {
      if url.lastPathComponent == ".build" || url.lastPathComponent == "node_modules" {
        walker.skipDescendants()
        continue
      }
      guard url.pathExtension == "swift" else { continue }
      self.byName[url.lastPathComponent, default: []].append(url.standardizedFileURL.path)
    }
    for name in self.byName.keys { self.byName[name]?.sort() }
  }

  /// The file a call site names: the one of its name under a folder named as its module
  /// (`Sources/ExampleFeatures/…` for `ExampleFeatures/TodosView.swift`), else the only one of
  /// its name; `nil` when there is none, or several and none in such a folder.
  func path(of site: CallSite) -> String? {
    guard let candidates = self.byName[site.fileName], !candidates.isEmpty else { return nil }
    let module = site.fileID.split(separator: "/").first.map(String.init) ?? ""
    let folders = [module, module.replacingOccurrences(of: "_", with: "-")]
    if let inModule = candidates.first(where: { path in
      folders.contains { !$0.isEmpty && path.contains("/\($0)/") }
    }) {
      return inModule
    }
    return candidates.count == 1 ? candidates[0] : nil
  }

  /// A DAP `Source` for a call site.
  func source(of site: CallSite) -> JSONValue {
    if let path = self.path(of: site) {
      return .fields(["name": .string(site.fileName), "path": .string(path)])
    }
    return .fields([
      "name": .string(site.fileName),
      "origin": .string("\(site.fileID): not found under \(self.root.path)"),
      "presentationHint": .string("deemphasize"),
    ])
  }
}

/// A line breakpoint, as the editor set it, and where in the recording it stops.
struct LineBreakpoint {
  let id: Int
  let path: String
  let line: Int
  let condition: ValueCondition?
  let conditionText: String?
  let hitCondition: HitCondition?
  let logMessage: String?
  /// The steps sent from the line (or fed back by effects made there), in order.
  var steps: [Int] = []
  var message: String?
  var hits = 0

  var verified: Bool { !self.steps.isEmpty }
}

/// `3` (the third hit), `>= 3`, `> 3`, `== 3`, `% 3` (every third).
struct HitCondition {
  enum Comparison: String { case equal = "==", atLeast = ">=", over = ">", every = "%" }
  let comparison: Comparison
  let count: Int

  init(_ text: String) throws {
    var text = text.trimmingCharacters(in: .whitespaces)
    var comparison = Comparison.equal
    for candidate in [Comparison.atLeast, .equal, .over, .every]
    where text.hasPrefix(candidate.rawValue) {
      comparison = candidate
      text = text.dropFirst(candidate.rawValue.count).trimmingCharacters(in: .whitespaces)
      break
    }
    guard let count = Int(text), count > 0 else {
      throw DAPError(
        "A hit count is a number of hits from 1, with ==, >=, > or % before it: not \"\(text)\".")
    }
    self.comparison = comparison
    self.count = count
  }

  func stops(atHit hit: Int) -> Bool {
    switch self.comparison {
    case .equal: hit == self.count
    case .atLeast: hit >= self.count
    case .over: hit > self.count
    case .every: hit % self.count == 0
    }
  }
}

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
