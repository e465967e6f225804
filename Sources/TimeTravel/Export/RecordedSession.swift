import ActionLog
import Foundation

/// The segments one rolling recording left in a folder (see
/// ``Recorder/init(directory:feature:initialState:retention:session:keepingPreviousSessions:segmentBytes:segmentDuration:checkpointInterval:metadata:redacting:schemaVersion:dependencies:stepUpdates:startedAt:elapsed:options:)``),
/// and the bug report made of them.
public struct RecordedSession: Sendable, Equatable {
  /// The session's name, which its segments' file names start with.
  public let name: String
  /// The folder.
  public let directory: URL
  /// Its segments' files, oldest first.
  public let segments: [URL]

  /// The sessions in `directory`, oldest first (names sort by start time).
  public static func all(
    in directory: URL, fileSystem: any LogFileSystem = .posix
  ) throws -> [RecordedSession] {
    let segments = try LogDirectory.segments(in: directory, fileSystem: fileSystem)
    let sessions = Dictionary(grouping: segments, by: \.session)
    return sessions.keys.sorted().map { name in
      RecordedSession(name: name, directory: directory, segments: sessions[name]!.map(\.url))
    }
  }

  /// The sessions in `directory` whose newest segment has no clean end: the app stopped
  /// without closing the recorder (a crash, a kill), or is recording still.
  public static func unfinished(
    in directory: URL, fileSystem: any LogFileSystem = .posix
  ) throws -> [RecordedSession] {
    try Self.all(in: directory, fileSystem: fileSystem).filter { !$0.isFinished }
  }

  /// Whether the newest segment ends with an `end` record (the recorder was closed).
  public var isFinished: Bool {
    guard let last = self.segments.last,
      let recording = try? Recording(contentsOf: last)
    else { return false }
    return recording.ending == .clean
  }

  /// The places where recording stopped (a full disk, a failed write or sync) and started
  /// again: each segment whose header says what is missing before it (its `gap` metadata),
  /// oldest first. ``joined()`` starts after the last of them.
  public var gaps: [(segment: URL, text: String)] {
    self.segments.compactMap { url in
      guard let recording = try? Recording(contentsOf: url),
        let gap = recording.header.metadata["gap"]
      else { return nil }
      return (url, gap)
    }
  }

  /// The session's segments joined into one recording: what ``bugReport(to:last:note:metadata:redacting:fileSystem:)``
  /// cuts from. Segments deleted while this reads them are left out.
  public func joined() throws -> Recording {
    var recordings: [Recording] = []
    for url in self.segments {
      do {
        recordings.append(try Recording(contentsOf: url))
      } catch let error as ActionLogError {
        // NB: The recorder deletes the oldest segments as it goes on.
        if case .unreadable = error, recordings.isEmpty,
          !FileManager.default.fileExists(atPath: url.path)
        {
          continue
        }
        throw error
      }
    }
    guard !recordings.isEmpty else {
      throw ActionLogError.empty(path: self.directory.appendingPathComponent(self.name).path)
    }
    return try Recording.joining(recordings).0
  }

  /// Writes one ordinary recording of the session's last actions, for a bug report: it starts
  /// from the state before them, holds their dependency values and effects, the metadata and
  /// note given, and the session's redactions plus `redactions`. It verifies with
  /// `replay verify` and opens in the REPL like any recording.
  ///
  /// - Parameters:
  ///   - url: Where to write it; it must not exist.
  ///   - last: How far back from the last action to start; `nil` keeps all that is kept.
  ///   - note: What the reporter says happened; kept in the metadata as `note`.
  ///   - metadata: More facts for the header: app version, device, …
  ///   - redactions: More to hide, on top of what the recorder hid.
  /// - Returns: What was written.
  @discardableResult
  public func bugReport(
    to url: URL, last: Duration? = .seconds(300), note: String? = nil,
    metadata: [String: String] = [:], redacting redactions: Redactions = .none,
    fileSystem: any LogFileSystem = .posix
  ) throws -> ExportSummary {
    try Self.bugReport(
      of: try self.joined(), to: url, last: last, note: note, metadata: metadata,
      redacting: redactions, fileSystem: fileSystem)
  }

  /// Writes a bug report of `recording`'s last actions (see
  /// ``bugReport(to:last:note:metadata:redacting:fileSystem:)``).
  @discardableResult
  public static func bugReport(
    of recording: Recording, to url: URL, last: Duration?, note: String?,
    metadata: [String: String], redacting redactions: Redactions,
    fileSystem: any LogFileSystem = .posix
  ) throws -> ExportSummary {
    var metadata = metadata
    if let note { metadata["note"] = note }
    let cut = try Self.cut(of: recording, keepingLast: last)
    if let session = recording.header.metadata["session"] {
      // Numbered as the session numbers them, not as the join of what was kept does.
      let first = recording.firstAction
      let before = cut?.after ?? 0
      metadata["firstAction"] = String(first + before)
      metadata["segment"] = ""
      if before > 0 || first > 1 {
        metadata["cutFrom"] =
          (before == recording.count
            ? "none" : "actions \(first + before)–\(first + recording.count - 1)")
          + " of session \(session), recorded from \(recording.header.startedAtText)"
      }
    }
    return try recording.export(
      to: url,
      options: ExportOptions(
        metadata: metadata, redactions: redactions, cut: cut, fileSystem: fileSystem))
  }

  /// Where a report of the last `window` of `recording` starts: after the last action older
  /// than the window, from the checkpoint there or the state its step updates rebuild; without
  /// either, at the nearest checkpoint before.
  static func cut(
    of recording: Recording, keepingLast window: Duration?
  ) throws -> ExportOptions
    .Cut?
  {
    guard let window, recording.count > 0 else { return nil }
    let start = recording.time(ofAction: recording.count) - window
    // The number of actions before the window.
    let before = recording.action(atTime: start - .nanoseconds(1))
    guard before > 0 else { return nil }
    if recording.checkpoints.contains(before) { return ExportOptions.Cut(after: before) }
    if recording.hasEveryState {
      return ExportOptions.Cut(after: before, state: try recording.stateJSON(after: before).bytes)
    }
    let checkpoint = recording.checkpoint(atOrBefore: before)
    return checkpoint == 0 ? nil : ExportOptions.Cut(after: checkpoint)
  }

  /// Deletes the session's segments.
  public func remove(fileSystem: any LogFileSystem = .posix) {
    for url in self.segments {
      try? fileSystem.unlink(url.path)
    }
  }
}
