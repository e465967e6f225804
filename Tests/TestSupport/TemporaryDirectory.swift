import Foundation

/// A temporary folder, removed with everything in it when the value is released.
public final class TemporaryDirectory {
  /// The folder.
  public let url: URL

  /// Creates an empty folder under the system's temporary folder.
  public init() {
    self.url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ComposableReplayTests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: self.url)
  }

  /// A path in the folder.
  public func file(_ name: String = "test.actionlog") -> URL {
    self.url.appendingPathComponent(name)
  }
}
