import Foundation

/// One of `count` parts of a folder of recordings: how `replay check --shard K/N` and a
/// parameterized test over a folder split the recordings between CI machines.
///
/// A recording's part follows from its path relative to the folder alone (a 64-bit FNV-1a hash
/// of it, modulo `count`), so adding or removing a recording moves no other one, and every
/// machine computes the same parts.
///
/// ```swift
/// let shard = try RecordingShard(parsing: "2/4")
/// shard.contains("bug-reports/heart.actionlog")
/// ```
public struct RecordingShard: Sendable, Hashable, CustomStringConvertible {
  /// Which part, from 1.
  public let part: Int
  /// How many parts.
  public let count: Int

  /// The environment variable a parameterized test reads its part from: `K/N`.
  public static let environmentKey = "COMPOSABLE_REPLAY_SHARD"

  /// Part `part` (from 1) of `count`.
  public init(part: Int, of count: Int) throws(RecordingShardError) {
    guard count >= 1, (1...count).contains(part) else {
      throw RecordingShardError(text: "\(part)/\(count)")
    }
    self.part = part
    self.count = count
  }

  /// The part that `K/N` names, as `--shard` and ``environmentKey`` take it.
  public init(parsing text: String) throws(RecordingShardError) {
    let pieces = text.trimmingCharacters(in: .whitespaces).split(
      separator: "/", omittingEmptySubsequences: false)
    guard pieces.count == 2, let part = Int(pieces[0]), let count = Int(pieces[1]) else {
      throw RecordingShardError(text: text)
    }
    try self.init(part: part, of: count)
  }

  /// The part ``environmentKey`` names in `environment`; `nil` when it is not set or empty.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(RecordingShardError) -> RecordingShard? {
    guard let text = environment[Self.environmentKey], !text.isEmpty else { return nil }
    return try RecordingShard(parsing: text)
  }

  /// Whether the recording at `relativePath` (from the folder the parts are of) is in this part.
  public func contains(_ relativePath: String) -> Bool {
    Self.part(of: relativePath, count: self.count) == self.part
  }

  /// The part, from 1, of the recording at `relativePath` when a folder is split in `count`.
  public static func part(of relativePath: String, count: Int) -> Int {
    // NB: FNV-1a over the path's UTF-8, with `/` between components on every system: the same
    // part on every machine and in every process, unlike `Hasher`, which is seeded per process.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in relativePath.replacingOccurrences(of: "\\", with: "/").utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return Int(hash % UInt64(max(count, 1))) + 1
  }

  public var description: String { "\(self.part)/\(self.count)" }
}

/// A shard written other than `K/N` with `1 ≤ K ≤ N`.
public struct RecordingShardError: Error, Equatable, CustomStringConvertible {
  /// What was given.
  public let text: String

  public var description: String {
    """
    "\(self.text)" is not a shard: write K/N, part K of N parts with 1 ≤ K ≤ N (2/4 is the \
    second of four).
    """
  }
}

/// The recordings under a folder.
public enum RecordingFolder {
  /// The `.actionlog` files under `folder` and its subfolders, as paths relative to it
  /// (`bug-reports/heart.actionlog`), sorted.
  ///
  /// - Throws: `CocoaError(.fileReadNoSuchFile)` when `folder` is not a folder that can be read.
  public static func relativePaths(in folder: URL) throws -> [String] {
    let root = folder.standardizedFileURL
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder),
      isFolder.boolValue,
      let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    else {
      throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path])
    }
    return walk.compactMap { $0 as? URL }
      .filter { $0.pathExtension == "actionlog" }
      .map { $0.standardizedFileURL.pathComponents.dropFirst(root.pathComponents.count) }
      .map { $0.joined(separator: "/") }
      .sorted()
  }
}
