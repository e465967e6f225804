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
