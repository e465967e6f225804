import ActionLog
import Foundation

/// The recordings under `folder` (and its subfolders), for a parameterized test with a case per
/// recording; on CI, only the part `COMPOSABLE_REPLAY_SHARD=K/N` names, split as
/// `replay check --shard K/N` splits them.
///
/// ```swift
/// @Test(arguments: try recordings(in: URL(filePath: #filePath).deletingLastPathComponent()
///   .appending(path: "Recordings")))
/// func replaysAsRecorded(_ recording: URL) throws {
///   try assertReplay(recording) { Todos() }
/// }
/// ```
///
/// - Throws: When `folder` cannot be read, or `COMPOSABLE_REPLAY_SHARD` is not `K/N`.
public func recordings(in folder: URL) throws -> [URL] {
  try recordings(in: folder, shard: RecordingShard.fromEnvironment())
}

/// The recordings under `folder` in part `shard` (all of them for `nil`), sorted by path.
public func recordings(in folder: URL, shard: RecordingShard?) throws -> [URL] {
  try RecordingFolder.relativePaths(in: folder)
    .filter { shard?.contains($0) ?? true }
    .map { folder.appendingPathComponent($0) }
}
